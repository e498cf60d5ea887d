import { describe, expect, it } from "vitest";
import { recommended } from "~/.server/content/recommend";
import { addInterest, listInterests, removeInterest } from "~/.server/members/interests";
import { memberPage } from "~/.server/members/profile";
import { SEARCH_PAGE_SIZE, searchPage, searchQuerySchema } from "~/.server/search/search";
import { setFollow } from "~/.server/social/social";
import { MAX_INTERESTS } from "~/lib/limits";
import { newItem, newMember, refusedKey } from "./helpers";

describe("interests", () => {
  it("keeps at most five and refuses a repeat with 'Repeat addition'", async () => {
    const me = await newMember();
    for (const sdg of [3, 7, 1, 13, 6]) expect(await refusedKey(addInterest(me, sdg, 1))).toBeNull();
    expect(await refusedKey(addInterest(me, 7, 2))).toBe("validation.repeatAddition");
    expect(await refusedKey(addInterest(me, 9, 2))).toBe(`validation.maxInterests|max=${MAX_INTERESTS}`);
    expect(await listInterests(me)).toEqual([1, 3, 6, 7, 13]);
    await removeInterest(me, 7);
    await removeInterest(me, 7);
    expect(await refusedKey(addInterest(me, 9, 3))).toBeNull();
    expect(await listInterests(me)).toHaveLength(5);
  });

  it("never passes five when many are added at once", async () => {
    const me = await newMember();
    const answers = await Promise.all([1, 2, 3, 4, 5, 6, 7, 8, 9].map((sdg) => refusedKey(addInterest(me, sdg, 1))));
    expect(answers.filter((a) => a === null)).toHaveLength(MAX_INTERESTS);
    expect(await listInterests(me)).toHaveLength(MAX_INTERESTS);
  });
});

describe("a member's page", () => {
  it("shows counts and lists, and hides private uploads from everyone but their owner", async () => {
    const owner = await newMember("Owner");
    const fan = await newMember("Fan");
    const other = await newMember("Other");
    const shared = await newItem(owner, { title: "shared" });
    const hidden = await newItem(owner, { title: "hidden", publicize: 0 });
    await setFollow(fan, owner, true, 1);
    await setFollow(fan, owner, true, 2);
    await setFollow(owner, other, true, 3);

    const seenByFan = await memberPage(fan, owner);
    expect(seenByFan?.member).toMatchObject({ nick_name: "Owner", followers: 1, following: 1, uploads: 1 });
    expect(seenByFan?.uploads.map((u) => u.id)).toEqual([shared]);
    expect(seenByFan?.followers.map((m) => m.nick_name)).toEqual(["Fan"]);
    expect(seenByFan?.following.map((m) => m.nick_name)).toEqual(["Other"]);
    expect(seenByFan).toMatchObject({ is_self: false, viewer_follows: true });

    const seenBySelf = await memberPage(owner, owner);
    expect(seenBySelf?.member.uploads).toBe(2);
    expect(seenBySelf?.uploads.map((u) => u.id).sort()).toEqual([shared, hidden].sort());
    expect(seenBySelf).toMatchObject({ is_self: true, viewer_follows: false });

    expect(await memberPage(fan, 987_654_321)).toBeNull();
  });
});

describe("the recommended list", () => {
  it("puts follows and interests first, then popularity, and never one's own or private items", async () => {
    const me = await newMember();
    const followed = await newMember();
    const stranger = await newMember();
    await setFollow(me, followed, true, 1);
    await addInterest(me, 14, 1);
    // Far more popular than anything else, so only the ordering rules can put others above it.
    const popular = await newItem(stranger, { sdg: 2, likes: 900, views: 9000 });
    const both = await newItem(followed, { sdg: 14 });
    const fromFollowed = await newItem(followed, { sdg: 2, likes: 1 });
    const onInterest = await newItem(stranger, { sdg: 14 });
    const lessPopular = await newItem(stranger, { sdg: 2, likes: 899, views: 9000 });
    const privateOne = await newItem(followed, { sdg: 14, publicize: 0 });
    const mine = await newItem(me, { sdg: 14 });

    const ids: number[] = [];
    for (let page = 1; ; page++) {
      const result = await recommended(me, page, 50);
      ids.push(...result.items.map((i) => i.id));
      if (!result.has_more) break;
    }
    const ours = ids.filter((id) => [popular, both, fromFollowed, onInterest, lessPopular, privateOne, mine].includes(id));
    // Both reasons, then one reason (the more liked first), then by popularity alone.
    expect(ours).toEqual([both, fromFollowed, onInterest, popular, lessPopular]);
    expect(ids).not.toContain(privateOne);
    expect(ids).not.toContain(mine);
  });

  it("ranks exactly as the plain rule would, page by page, on random catalogues", async () => {
    for (const seed of [1, 2, 3]) {
      let state = seed;
      const random = (n: number) => {
        state = (state * 48271) % 2147483647;
        return state % n;
      };
      const members = [await newMember(), await newMember(), await newMember(), await newMember(), await newMember()];
      const me = members[0] ?? 0;
      const follows = members.filter(() => random(2) === 1);
      for (const other of follows) await setFollow(me, other, true, 1);
      const goals = [1 + random(4), 1 + random(4)];
      for (const sdg of goals) await addInterest(me, sdg, 1);
      const rows: { id: number; owner: number; sdg: number; pop: number; created: number; publicize: 0 | 1 }[] = [];
      for (let i = 0; i < 60; i++) {
        const owner = members[random(members.length)] ?? me;
        const f = {
          sdg: 1 + random(4),
          likes: random(4),
          views: random(10),
          created_at: 1 + random(20),
          publicize: (random(6) ? 1 : 0) as 0 | 1,
        };
        const id = await newItem(owner, f);
        rows.push({ id, owner, sdg: f.sdg, pop: f.likes * 3 + f.views, created: f.created_at, publicize: f.publicize });
      }
      const ours = new Set(rows.map((r) => r.id));
      const reasons = (r: (typeof rows)[number]) => Number(follows.includes(r.owner)) + Number(goals.includes(r.sdg));
      const expected = rows
        .filter((r) => r.publicize && r.owner !== me)
        .sort((a, b) => reasons(b) - reasons(a) || b.pop - a.pop || b.created - a.created || b.id - a.id)
        .map((r) => r.id);
      const got: number[] = [];
      for (let page = 1; page <= 200; page++) {
        const result = await recommended(me, page, 7);
        got.push(...result.items.map((i) => i.id));
        if (!result.has_more) break;
      }
      // Items from other tests may sit among ours; the relative order of ours must be exact.
      expect(got.filter((id) => ours.has(id))).toEqual(expected);
    }
  });
});

describe("search pages", () => {
  it("pages through every hit once, in order, and says when there is no more", async () => {
    const author = await newMember();
    const word = `zq${crypto.randomUUID().slice(0, 6)}`;
    const made: number[] = [];
    for (let i = 0; i < SEARCH_PAGE_SIZE + 5; i++) made.push(await newItem(author, { title: `${word} ${i}`, created_at: i }));
    const query = (page: number) => searchQuerySchema.parse({ q: word, page: String(page) });
    const first = await searchPage(query(1), author, Date.now());
    const second = await searchPage(query(2), author, Date.now());
    expect(first.items).toHaveLength(SEARCH_PAGE_SIZE);
    expect(first.has_more).toBe(true);
    expect(second.items).toHaveLength(5);
    expect(second.has_more).toBe(false);
    expect([...first.items, ...second.items].map((h) => h.id).sort((a, b) => a - b)).toEqual(made);
  });
});
