/**
 * /personal/Setting: the profile (spec section 3); `?section=organisation` the organisation by ROR
 * (decision 0052); `?section=avatar` the avatar; `?section=account`
 * the password, signing in with ORCID, the language and the member's data; `?section=notifications` the
 * notices and blocked members. Four pages, not one (decision 0047): the whole was 17 KB gzip, over
 * its 14 KB budget.
 */
export const SECTIONS = ["profile", "organisation", "avatar", "account", "notifications"] as const;
export type Section = (typeof SECTIONS)[number];
export const sectionIn = (query: URLSearchParams): Section => SECTIONS.find((section) => section === query.get("section")) ?? "profile";
