// Rewards: milestones a member reaches once each (docs/decisions/0019-rewards.md). The rules are
// published on the member's own Space; changed only here.

export type RewardMeasure = "uploads" | "comments" | "followers" | "likesReceived" | "points";

export const REWARDS = [
  { key: "firstUpload", measure: "uploads", count: 1 },
  { key: "fiveUploads", measure: "uploads", count: 5 },
  { key: "firstComment", measure: "comments", count: 1 },
  { key: "tenFollowers", measure: "followers", count: 10 },
  { key: "fiftyLikes", measure: "likesReceived", count: 50 },
  { key: "hundredPoints", measure: "points", count: 100 },
] as const satisfies ReadonlyArray<{ key: string; measure: RewardMeasure; count: number }>;

export type RewardKey = (typeof REWARDS)[number]["key"];

export interface EarnedReward {
  reward: RewardKey;
  awarded_at: number;
}
