// Numbers the spec fixes, and the ones it leaves open (chosen in docs/decisions/0005-shell-behaviour.md).
export const UNREAD_BADGE_MAX = 99;
export const NOTIFICATION_MS = 5000;
export const MAX_VISITED_VIEWS = 12;
// A tab's address as stored in the tagsView cookie, URI-encoded: 12 of them stay under the 4 KB a
// browser keeps per cookie. A longer address is kept without its query.
export const MAX_VIEW_URL_ENCODED = 250;
export const CONTEXT_MENU_WIDTH = 105;
export const SESSION_IDLE_MS = 1_200_000;
/** A page the browser fetched ahead (on hover) is shown if it was made at most this long before it was opened; else made again. */
export const PREFETCH_FRESH_MS = 30_000;
