// The credit score's published rules (spec section 3): each input counted over the last month, times
// its coefficient. The spec gives no coefficients; these are ours, shown to every member on
// /personal/ranking, and changed only here (docs/decisions/0008-points-and-credit-score.md).
export const SCORE_PERIOD_DAYS = 30;

export const SCORE_INPUTS = [
  "follows",
  "followers",
  "videoUploads",
  "videoLikes",
  "videoViews",
  "documentUploads",
  "documentLikes",
  "documentViews",
  "points",
] as const;
export type ScoreInput = (typeof SCORE_INPUTS)[number];

export const COEFFICIENTS: Record<ScoreInput, number> = {
  follows: 0.5,
  followers: 2,
  videoUploads: 5,
  videoLikes: 1,
  videoViews: 0.1,
  documentUploads: 5,
  documentLikes: 1,
  documentViews: 0.1,
  points: 0.2,
};

export type Breakdown = Record<ScoreInput, { count: number; coefficient: number; product: number }>;

/** The score is exactly the sum of its products, each rounded to hundredths. */
export function scoreOf(counts: Record<ScoreInput, number>): { score: number; breakdown: Breakdown } {
  const breakdown = {} as Breakdown;
  let score = 0;
  for (const input of SCORE_INPUTS) {
    const count = counts[input] ?? 0;
    const product = Math.round(count * COEFFICIENTS[input] * 100) / 100;
    breakdown[input] = { count, coefficient: COEFFICIENTS[input], product };
    score += product;
  }
  return { score: Math.round(score * 100) / 100, breakdown };
}

/** Points for actions, with daily caps so they cannot be farmed. */
export const POINT_RULES = {
  upload: { amount: 10, daily_cap: 3 },
  comment: { amount: 1, daily_cap: 10 },
  likeReceived: { amount: 1, daily_cap: 20 },
} as const;
export type PointReason = keyof typeof POINT_RULES;
