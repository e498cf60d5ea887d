import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { followGoal, matchesSearch, matchNewItem, newItemJob, saveSearch } from "~/.server/notifications/new-items";
import { listNotifications, setChannels } from "~/.server/notifications/notifications";
import { newItem, newMember, refusedKey, until } from "./helpers";

// A new public item tells its uploader's followers, its goal's followers and the members whose saved
// search it matches (issue 33, decision 0040): once each, in the background, never the uploader.

const NOW = Date.UTC(2026, 11, 1, 9);
const told = async (member: number) => (await listNotifications(member)).map((n) => `${n.kind}:${n.subject_id}`);
const follow = (follower: number, followee: number) =>
  env.DB.prepare("INSERT INTO follows (follower_id, followee_id, created_at) VALUES (?, ?, 1)").bind(follower, followee).run();

/** Runs an item's matching from its first job; later stages arrive through the real queue. */
async function matched(id: number, last: number) {
  await matchNewItem(newItemJob(id), NOW);
  await until(async () => (await told(last)).length > 0);
}

describe("a new public item", () => {
  it("tells followers, goal followers and matching saved searches once each; never the uploader, a blocked member or a non-match", async () => {
    const owner = await newMember("Uploader");
    const fan = await newMember("Fan");
    const goalFan = await newMember("Goal fan");
    const searcher = await newMember("Searcher");
    const both = await newMember("Both");
    const blocked = await newMember("Blocked");
    const other = await newMember("Other");
    await follow(fan, owner);
    await follow(both, owner);
    await follow(blocked, owner);
    await env.DB.prepare("INSERT INTO blocks (blocker_id, blocked_id, created_at) VALUES (?, ?, 1)").bind(owner, blocked).run();
    await followGoal(goalFan, 14, true, NOW);
    await followGoal(both, 14, true, NOW);
    await saveSearch(searcher, { q: "Coral REEF", kind: null, sdg: null }, NOW);
    await saveSearch(both, { q: "coral", kind: "document", sdg: 14 }, NOW);
    await saveSearch(other, { q: "coral desert", kind: null, sdg: null }, NOW);
    await saveSearch(owner, { q: "coral", kind: null, sdg: null }, NOW);
    const id = await newItem(owner, { sdg: 14, title: "Coral reefs under heat", summary: "Bleaching" });
    await matched(id, searcher);
    expect(await told(fan)).toEqual([`followed_upload:${id}`]);
    expect(await told(goalFan)).toEqual([`goal_item:${id}`]);
    expect(await told(searcher)).toEqual([`saved_search:${id}`]);
    // Three reasons, one notification: the first that applies.
    expect(await told(both)).toEqual([`followed_upload:${id}`]);
    for (const nobody of [blocked, other, owner]) expect(await told(nobody)).toEqual([]);
    // Done again (a redelivered job): nothing more.
    await matchNewItem({ ...newItemJob(id), stage: "searches" }, NOW);
    expect(await told(searcher)).toHaveLength(1);
  });

  it("tells of each of two items arriving while matching runs, and of no private item", async () => {
    const owner = await newMember("Busy uploader");
    const fan = await newMember("Fan of two");
    await follow(fan, owner);
    await setChannels(fan, { followed_upload: "app" });
    const [first, second] = [await newItem(owner, { title: "First" }), await newItem(owner, { title: "Second" })];
    const hidden = await newItem(owner, { title: "Private", publicize: 0 });
    await Promise.all([matchNewItem(newItemJob(first), NOW), matchNewItem(newItemJob(second), NOW), matchNewItem(newItemJob(hidden), NOW)]);
    expect((await told(fan)).sort()).toEqual([`followed_upload:${first}`, `followed_upload:${second}`].sort());
  });
});

describe("saved searches", () => {
  it("match on every word, whatever the case; are kept once; and at most twenty", async () => {
    expect(matchesSearch(["coral", "REEF"], "Coral reefs")).toBe(true);
    expect(matchesSearch(["coral", "desert"], "Coral reefs")).toBe(false);
    expect(matchesSearch([], "anything")).toBe(false);
    const me = await newMember("Saver");
    const one = await saveSearch(me, { q: "water  quality", kind: null, sdg: null }, NOW);
    expect(await saveSearch(me, { q: "water quality", kind: null, sdg: null }, NOW)).toBe(one);
    expect(await refusedKey(saveSearch(me, { q: "   ", kind: null, sdg: null }, NOW))).toBe("validation.savedSearchEmpty");
    for (let i = 0; i < 19; i++) await saveSearch(me, { q: `topic ${i}`, kind: null, sdg: null }, NOW);
    expect(await refusedKey(saveSearch(me, { q: "one more", kind: null, sdg: null }, NOW))).toBe("validation.savedSearchesFull|max=20");
  });
});
