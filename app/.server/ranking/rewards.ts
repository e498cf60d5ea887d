import { env } from "~/.server/bindings";
import { type EarnedReward, REWARDS, type RewardMeasure } from "~/lib/rewards";

// Awards the milestones of app/lib/rewards.ts: one conditional insert per rule, so each is awarded
// once (the primary key) however often this runs, for one member (in the write that can reach a
// milestone: points awarded, a follow), a batch of members (a score run's) or all.

/** Each measure: whose it is, where it is counted, and how. */
const MEASURES: Record<RewardMeasure, { who: string; from: string; n: string }> = {
  uploads: { who: "owner_id", from: "content", n: "count(*)" },
  comments: { who: "user_id", from: "comments", n: "count(*)" },
  followers: { who: "followee_id", from: "follows", n: "count(*)" },
  likesReceived: { who: "c.owner_id", from: "likes l JOIN content c ON c.id = l.content_id", n: "count(*)" },
  points: { who: "user_id", from: "points", n: "sum(amount)" },
};

/** Awards every milestone reached by all members, the members with ids in `[from, to]` (a score batch), or one member. */
export async function grantRewards(now: number, members?: number | readonly [number, number]) {
  await env.DB.batch(rewardStatements(now, members));
}

/** The statements of grantRewards, to go in the same batch as the write that may reach a milestone. */
export function rewardStatements(now: number, members?: number | readonly [number, number]) {
  const [from, to] = typeof members === "number" ? [members, members] : (members ?? [0, Number.MAX_SAFE_INTEGER]);
  return REWARDS.map(({ key, measure, count }) => {
    const { who, from: table, n } = MEASURES[measure];
    const counted = `SELECT ${who} AS user_id, ${n} AS n FROM ${table} WHERE ${who} BETWEEN ?4 AND ?5 GROUP BY ${who}`;
    return env.DB.prepare(
      `INSERT OR IGNORE INTO member_rewards (user_id, reward, awarded_at)
           SELECT m.user_id, ?1, ?2 FROM (${counted}) m JOIN users u ON u.id = m.user_id WHERE m.n >= ?3 AND u.deleted_at IS NULL`,
    ).bind(key, now, count, from, to);
  });
}

/** A member's rewards in the order they were reached (also read in the member page's batch). */
export const rewardsStatement = (userId: number) =>
  env.DB.prepare("SELECT reward, awarded_at FROM member_rewards WHERE user_id = ? ORDER BY awarded_at, reward").bind(userId);

export async function rewardsOf(userId: number): Promise<EarnedReward[]> {
  return (await rewardsStatement(userId).all<EarnedReward>()).results;
}
