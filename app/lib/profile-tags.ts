// The spec's default profile tags (section 3), by key; their names are in locales (tags.<key>). A
// member may add their own words too. "Social, change" in the spec is read as one tag, "Social change".
export const DEFAULT_TAGS = [
  "innovation",
  "health",
  "community",
  "technology",
  "business",
  "hope",
  "nature",
  "humanity",
  "theFuture",
  "inspiration",
  "science",
  "theEnvironment",
  "society",
  "identity",
  "entertainment",
  "newPerspective",
  "issuesThatMatter",
  "socialChange",
] as const;
export type DefaultTag = (typeof DEFAULT_TAGS)[number];

export const isDefaultTag = (tag: string): tag is DefaultTag => (DEFAULT_TAGS as readonly string[]).includes(tag);

export const MEMBERSHIP_LEVELS = ["free", "regular", "premium"] as const;
export type MembershipLevel = (typeof MEMBERSHIP_LEVELS)[number];

/** A member's profile tag: a default (its key, translated when shown) or their own words. */
export interface ProfileTag {
  id: number;
  tag: string;
  custom: 0 | 1;
}
