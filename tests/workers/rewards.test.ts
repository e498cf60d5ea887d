import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { grantRewards, rewardsOf } from "~/.server/ranking/rewards";
import { addComment, setFollow } from "~/.server/social/social";
import { REWARDS } from "~/lib/rewards";
import { newItem, newMember } from "./helpers";

const count = (key: string) => REWARDS.find((r) => r.key === key)?.count ?? 0;

describe("rewards", () => {
  it("are awarded once each when a milestone is reached, by the cron for everyone or for one member", async () => {
    const me = await newMember("Milestoner");
    const other = await newMember("Bystander");
    for (let i = 0; i < count("fiveUploads"); i++) await newItem(me);
    await newItem(other);
    await grantRewards(100, me);
    expect((await rewardsOf(me)).map((r) => r.reward).sort()).toEqual(["firstUpload", "fiveUploads"]);
    expect(await rewardsOf(other)).toEqual([]);
    await grantRewards(200);
    await grantRewards(300);
    expect(await rewardsOf(other)).toEqual([{ reward: "firstUpload", awarded_at: 200 }]);
    // Once each: later runs change neither the list nor the date.
    expect((await rewardsOf(me)).map((r) => r.awarded_at)).toEqual([100, 100]);
  });

  it("are awarded by the write that reaches them (a comment, a tenth follower), not by a page load", async () => {
    const me = await newMember("Commenter");
    const item = await newItem(await newMember("Author"));
    expect(await addComment(me, item, "A first word", 50, "first-comment-key")).toBe("stored");
    expect((await rewardsOf(me)).map((r) => r.reward)).toEqual(["firstComment"]);
    for (let i = 0; i < count("tenFollowers"); i++) await setFollow(await newMember(`Fan ${i}`), me, true, 60);
    expect((await rewardsOf(me)).map((r) => r.reward)).toEqual(["firstComment", "tenFollowers"]);
  });

  it("follow the published counts, and skip deleted accounts", async () => {
    const me = await newMember("Almost");
    for (let i = 0; i < count("fiveUploads") - 1; i++) await newItem(me);
    await env.DB.prepare("INSERT INTO points (user_id, reason, amount, day, created_at) VALUES (?, 'upload', ?, '2026-11-01', 1)")
      .bind(me, count("hundredPoints"))
      .run();
    await grantRewards(1, me);
    expect((await rewardsOf(me)).map((r) => r.reward).sort()).toEqual(["firstUpload", "hundredPoints"]);
    const gone = await newMember("Gone");
    await newItem(gone);
    await env.DB.prepare("UPDATE users SET deleted_at = 1 WHERE id = ?").bind(gone).run();
    await grantRewards(2);
    expect(await rewardsOf(gone)).toEqual([]);
  });
});
