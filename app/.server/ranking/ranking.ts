import { env } from "~/.server/bindings";
import { statsDb } from "~/.server/databases";
import { type Read, readOne } from "~/.server/reads";
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
import { rewardStatements } from "./rewards";

/** Awards points for an action unless today's cap for that reason is reached (one statement, no race). */
export async function awardPoints(userId: number, reason: PointReason, now: number) {
  const db = env.DB;
  const { amount, daily_cap } = POINT_RULES[reason];
  const day = new Date(now).toISOString().slice(0, 10);
  // The milestones the points (and what earned them) may have reached, in the same round trip.
  await db.batch([
    db
      .prepare(
        `INSERT INTO points (user_id, reason, amount, day, created_at)
         SELECT ?, ?, ?, ?, ? WHERE (SELECT count(*) FROM points WHERE user_id = ? AND reason = ? AND day = ?) < ?`,
      )
      .bind(userId, reason, amount, day, now, userId, reason, day, daily_cap),
    ...rewardStatements(now, userId),
  ]);
}

export interface PointAward {
  reason: PointReason;
  amount: number;
  day: string;
  created_at: number;
}

/** The member's points ledger: the newest awards, and the total over the score's period. */
export async function pointsLedger(userId: number, now: number, limit = 50) {
  const db = env.DB;
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
    period_total: Number((total?.results[0] as { n: number } | undefined)?.n ?? 0),
    rules: POINT_RULES,
    /** Milestones reached (rewards), newest first. */
    rewards: (milestones?.results ?? []) as unknown as EarnedReward[],
  };
}

/** The inputs counted from the statistics database (decision 0045); the others from the core. */
const VIEW_INPUTS = ["videoViews", "documentViews"] as const;
type ViewInput = (typeof VIEW_INPUTS)[number];

// One query per input over a range of member ids (?2..?3): member id -> count in the period, from ?1 up to ?4
// (its end, so a batch run late or again counts what a batch run on time would). The core's inputs:
export const INPUT_SQL: Record<Exclude<ScoreInput, ViewInput>, string> = {
  follows:
    "SELECT follower_id AS user_id, count(*) AS n FROM follows WHERE follower_id BETWEEN ?2 AND ?3 AND created_at >= ?1 AND created_at <= ?4 GROUP BY follower_id",
  followers:
    "SELECT followee_id AS user_id, count(*) AS n FROM follows WHERE followee_id BETWEEN ?2 AND ?3 AND created_at >= ?1 AND created_at <= ?4 GROUP BY followee_id",
  videoUploads: uploadsOf("video"),
  documentUploads: uploadsOf("document"),
  videoLikes: receivedOn("video", "likes", "created_at"),
  documentLikes: receivedOn("document", "likes", "created_at"),
  points:
    "SELECT user_id, sum(amount) AS n FROM points WHERE user_id BETWEEN ?2 AND ?3 AND created_at >= ?1 AND created_at <= ?4 GROUP BY user_id",
};

/** The owners' uploads of a kind (by owner, for the reason above). */
function uploadsOf(kind: string) {
  return `SELECT owner_id AS user_id, count(*) AS n FROM content INDEXED BY content_owner_recent WHERE owner_id BETWEEN ?2 AND ?3 AND kind = '${kind}' AND created_at >= ?1 AND created_at <= ?4 GROUP BY owner_id`;
}

/**
 * Likes on the owners' items, reached through the owners' items so a batch reads only its
 * own (named: by kind, the planner would read every item of the kind).
 */
function receivedOn(kind: string, table: string, since: string) {
  return `SELECT c.owner_id AS user_id, count(*) AS n FROM content c INDEXED BY content_owner_recent JOIN ${table} x ON x.content_id = c.id
          WHERE c.owner_id BETWEEN ?2 AND ?3 AND c.kind = '${kind}' AND x.${since} >= ?1 AND x.${since} <= ?4 GROUP BY c.owner_id`;
}

/** The statistics database's inputs, with the same placeholders (days for ?1 and ?4). */
export const VIEWS_SQL: Record<ViewInput, string> = {
  videoViews: readersOn("video"),
  documentViews: readersOn("document"),
};

/**
 * Views on the owners' items of a kind: each member counted once a day per item (their days'
 * readers, decision 0039). Owner by owner, so each reads only the period's days of its views.
 */
function readersOn(kind: string) {
  return `WITH RECURSIVE owners(id) AS (SELECT ?2 UNION ALL SELECT id + 1 FROM owners WHERE id < ?3)
    SELECT x.owner_id AS user_id, sum(x.readers) AS n FROM owners o JOIN stat_days x INDEXED BY stat_days_views ON x.owner_id = o.id
      WHERE x.kind = 'view' AND x.item_kind = '${kind}' AND x.day >= ?1 AND x.day <= ?4 GROUP BY x.owner_id`;
}

/** The views inputs of the members with ids in [from, to]: member id -> input -> count. */
async function viewsOf(since: string, from: number, to: number, asOf: string) {
  const stats = statsDb();
  const results = await stats.batch(VIEW_INPUTS.map((input) => stats.prepare(VIEWS_SQL[input]).bind(since, from, to, asOf)));
  const counts = new Map<number, Partial<Record<ViewInput, number>>>();
  VIEW_INPUTS.forEach((input, i) => {
    for (const row of (results[i]?.results ?? []) as { user_id: number; n: number }[]) {
      counts.set(row.user_id, { ...counts.get(row.user_id), [input]: Number(row.n) });
    }
  });
  return counts;
}

type Counts = Map<number, Record<ScoreInput, number>>;

/**
 * Every score input of the members with ids in [from, to], counted over the period before `asOf`:
 * the core's in the read's batch, the views from the statistics database, asked as the read is made
 * so both answer in the same time; the decoded counts are a promise of both.
 */
export function countsRead(asOf: number, from: number, to: number): Read<Promise<Counts>> {
  const db = env.DB;
  const since = asOf - SCORE_PERIOD_DAYS * 86_400_000;
  const day = (at: number) => new Date(at).toISOString().slice(0, 10);
  // Views are counted by day, everything else by time.
  const views = viewsOf(day(since), from, to, day(asOf));
  // Awaited by the decoding; a core batch that fails first leaves it unread, which is no error of its own.
  views.catch(() => {});
  const inputs = SCORE_INPUTS.filter((input): input is Exclude<ScoreInput, ViewInput> => input in INPUT_SQL);
  return {
    statements: [
      db.prepare("SELECT id FROM users WHERE id BETWEEN ? AND ? AND deleted_at IS NULL").bind(from, to),
      ...inputs.map((input) => db.prepare(INPUT_SQL[input]).bind(since, from, to, asOf)),
    ],
    decode: async ([members, ...results]) => {
      const viewed = await views;
      const counts: Counts = new Map();
      for (const { id } of (members?.results ?? []) as { id: number }[]) {
        const member = Object.fromEntries(SCORE_INPUTS.map((i) => [i, 0])) as Record<ScoreInput, number>;
        counts.set(id, Object.assign(member, viewed.get(id)));
      }
      inputs.forEach((input, i) => {
        for (const row of (results[i]?.results ?? []) as { user_id: number; n: number }[]) {
          const member = counts.get(row.user_id);
          if (member) member[input] = Number(row.n);
        }
      });
      return counts;
    },
  };
}

export const countsOf = async (asOf: number, from: number, to: number): Promise<Counts> => readOne(countsRead(asOf, from, to));

/** The id of the run the ranking shows: the newest published one. */
export const PUBLISHED_RUN = "(SELECT max(id) FROM score_runs WHERE published_at IS NOT NULL)";

/** The ranking of the newest published recomputation; equal scores share a rank. */
export const rankingRead = (limit = 100): Read<RankedMember[]> => ({
  statements: [
    env.DB.prepare(
      `SELECT RANK() OVER (ORDER BY s.score DESC) AS rank, s.user_id, u.nick_name, u.account_type, s.score
         FROM credit_scores s JOIN users u ON u.id = s.user_id AND u.deleted_at IS NULL
         WHERE s.run_id = ${PUBLISHED_RUN} ORDER BY s.score DESC, u.nick_name LIMIT ?`,
    ).bind(limit),
  ],
  decode: ([found]) => (found?.results ?? []) as RankedMember[],
});

export const rankingList = (limit = 100) => readOne(rankingRead(limit));

export interface OwnScore {
  score: number;
  breakdown: Breakdown;
  /** Counted now, from the same rule as the ranking. */
  computed_at: number;
  /** Where this score places the member in the ranking shown; null before the first recomputation. */
  rank: number | null;
  /** When the ranking shown was published; null before the first. */
  ranked_at: number | null;
}

/**
 * A member's own score, counted on demand (a new member sees every input at once, not "not yet"),
 * placed among the stored ranking's scores.
 */
export async function scoreFor(userId: number, now: number): Promise<OwnScore> {
  return placeScore(userId, now, await countsOf(now, userId, userId));
}

/** The member's score from their counts (read with countsRead, maybe beside a page's other reads), placed in the ranking. */
export async function placeScore(userId: number, now: number, counted: Counts | Promise<Counts>) {
  const { score, breakdown } = scoreOf((await counted).get(userId) ?? ({} as Record<ScoreInput, number>));
  const ranked = await env.DB.prepare(
    `SELECT r.published_at, (SELECT count(*) + 1 FROM credit_scores s WHERE s.run_id = r.id AND s.score > ?1 AND s.user_id <> ?2) AS rank
       FROM score_runs r WHERE r.id = ${PUBLISHED_RUN}`,
  )
    .bind(score, userId)
    .first<{ published_at: number; rank: number }>();
  return { score, breakdown, computed_at: now, rank: ranked?.rank ?? null, ranked_at: ranked?.published_at ?? null } satisfies OwnScore;
}
