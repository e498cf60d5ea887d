import {
  type Breakdown,
  POINT_RULES,
  type PointReason,
  SCORE_INPUTS,
  SCORE_PERIOD_DAYS,
  type ScoreInput,
  scoreOf,
} from "~/lib/credit-score";
import type { EarnedReward } from "~/lib/rewards";
import type { RankedMember } from "~/lib/shapes";

/** Awards points for an action unless today's cap for that reason is reached (one statement, no race). */
export async function awardPoints(db: D1Database, userId: number, reason: PointReason, now: number) {
  const { amount, dailyCap } = POINT_RULES[reason];
  const day = new Date(now).toISOString().slice(0, 10);
  await db
    .prepare(
      `INSERT INTO points (user_id, reason, amount, day, created_at)
       SELECT ?, ?, ?, ?, ? WHERE (SELECT count(*) FROM points WHERE user_id = ? AND reason = ? AND day = ?) < ?`,
    )
    .bind(userId, reason, amount, day, now, userId, reason, day, dailyCap)
    .run();
}

export interface PointAward {
  reason: PointReason;
  amount: number;
  day: string;
  created_at: number;
}

/** The member's points ledger: the newest awards, and the total over the score's period. */
export async function pointsLedger(db: D1Database, userId: number, now: number, limit = 50) {
  const since = now - SCORE_PERIOD_DAYS * 86_400_000;
  const [awards, total, milestones] = await db.batch([
    db
      .prepare("SELECT reason, amount, day, created_at FROM points WHERE user_id = ? ORDER BY created_at DESC, id DESC LIMIT ?")
      .bind(userId, limit),
    db.prepare("SELECT coalesce(sum(amount), 0) AS n FROM points WHERE user_id = ? AND created_at >= ?").bind(userId, since),
    db.prepare("SELECT reward, awarded_at FROM member_rewards WHERE user_id = ? ORDER BY awarded_at DESC, reward").bind(userId),
  ]);
  return {
    awards: (awards?.results ?? []) as PointAward[],
    periodTotal: Number((total?.results[0] as { n: number } | undefined)?.n ?? 0),
    rules: POINT_RULES,
    /** Milestones reached (rewards), newest first. */
    rewards: (milestones?.results ?? []) as unknown as EarnedReward[],
  };
}

// One query per input: member id -> count over the period.
const INPUT_SQL: Record<ScoreInput, string> = {
  follows: "SELECT follower_id AS user_id, count(*) AS n FROM follows WHERE created_at >= ? GROUP BY follower_id",
  followers: "SELECT followee_id AS user_id, count(*) AS n FROM follows WHERE created_at >= ? GROUP BY followee_id",
  videoUploads: "SELECT owner_id AS user_id, count(*) AS n FROM content WHERE kind = 'video' AND created_at >= ? GROUP BY owner_id",
  documentUploads: "SELECT owner_id AS user_id, count(*) AS n FROM content WHERE kind = 'document' AND created_at >= ? GROUP BY owner_id",
  videoLikes:
    "SELECT c.owner_id AS user_id, count(*) AS n FROM likes l JOIN content c ON c.id = l.content_id WHERE c.kind = 'video' AND l.created_at >= ? GROUP BY c.owner_id",
  documentLikes:
    "SELECT c.owner_id AS user_id, count(*) AS n FROM likes l JOIN content c ON c.id = l.content_id WHERE c.kind = 'document' AND l.created_at >= ? GROUP BY c.owner_id",
  videoViews:
    "SELECT c.owner_id AS user_id, count(*) AS n FROM content_views v JOIN content c ON c.id = v.content_id WHERE c.kind = 'video' AND v.day >= ? GROUP BY c.owner_id",
  documentViews:
    "SELECT c.owner_id AS user_id, count(*) AS n FROM content_views v JOIN content c ON c.id = v.content_id WHERE c.kind = 'document' AND v.day >= ? GROUP BY c.owner_id",
  points: "SELECT user_id, sum(amount) AS n FROM points WHERE created_at >= ? GROUP BY user_id",
};

/** Recomputes every member's credit score over the last month and stores it (the cron's job). */
export async function recomputeScores(db: D1Database, now: number) {
  const since = now - SCORE_PERIOD_DAYS * 86_400_000;
  const sinceDay = new Date(since).toISOString().slice(0, 10);
  const [members, ...inputs] = await db.batch([
    db.prepare("SELECT id FROM users WHERE deleted_at IS NULL"),
    // View rows carry a day, everything else a time.
    ...SCORE_INPUTS.map((input) => db.prepare(INPUT_SQL[input]).bind(input.endsWith("Views") ? sinceDay : since)),
  ]);
  const counts = new Map<number, Record<ScoreInput, number>>();
  for (const { id } of (members?.results ?? []) as { id: number }[]) {
    counts.set(id, Object.fromEntries(SCORE_INPUTS.map((i) => [i, 0])) as Record<ScoreInput, number>);
  }
  SCORE_INPUTS.forEach((input, i) => {
    for (const row of (inputs[i]?.results ?? []) as { user_id: number; n: number }[]) {
      const member = counts.get(row.user_id);
      if (member) member[input] = Number(row.n);
    }
  });
  const writes = [...counts].map(([userId, memberCounts]) => {
    const { score, breakdown } = scoreOf(memberCounts);
    return db
      .prepare("INSERT OR REPLACE INTO credit_scores (user_id, score, breakdown, computed_at) VALUES (?, ?, ?, ?)")
      .bind(userId, score, JSON.stringify(breakdown), now);
  });
  for (let i = 0; i < writes.length; i += 500) await db.batch(writes.slice(i, i + 500));
  return { members: counts.size };
}

/** The stored ranking; equal scores share a rank. */
export async function rankingList(db: D1Database, limit = 100): Promise<RankedMember[]> {
  const { results } = await db
    .prepare(
      `SELECT RANK() OVER (ORDER BY s.score DESC) AS rank, s.user_id, u.nick_name, u.account_type, s.score
       FROM credit_scores s JOIN users u ON u.id = s.user_id AND u.deleted_at IS NULL ORDER BY s.score DESC, u.nick_name LIMIT ?`,
    )
    .bind(limit)
    .all<RankedMember>();
  return results;
}

export async function scoreFor(db: D1Database, userId: number) {
  const row = await db
    .prepare(
      `SELECT s.score, s.breakdown, s.computed_at, (SELECT count(*) + 1 FROM credit_scores o WHERE o.score > s.score) AS rank
       FROM credit_scores s WHERE s.user_id = ?`,
    )
    .bind(userId)
    .first<{ score: number; breakdown: string; computed_at: number; rank: number }>();
  return row ? { ...row, breakdown: JSON.parse(row.breakdown) as Breakdown } : null;
}

/** A fresh local install has never seen the cron fire: compute once so the pages are not empty. */
export async function ensureScores(db: D1Database, now: number) {
  const any = await db.prepare("SELECT 1 FROM credit_scores LIMIT 1").first();
  if (!any) await recomputeScores(db, now);
}
