import { UNREAD_BADGE_MAX } from "./config";

/** The unread badge's text: nothing for zero, the count up to the cap, then "99+". */
export function badgeText(count: number, max = UNREAD_BADGE_MAX): string | null {
  if (!Number.isFinite(count) || count <= 0) return null;
  return count > max ? `${max}+` : String(Math.floor(count));
}
