// Blocks: a blocked member can no longer message the blocker, follow them or comment on their
// uploads, and hears only the neutral refusal any unavailable action gets. The checks live inside the
// writes they guard (`WHERE NOT EXISTS`), so a block and a follow racing cannot both win.
// What the other services check and answer for a block; they import this, not the block writes.

/** The one answer to anything a block refuses: it does not say that a block is why. */
export const NOT_AVAILABLE = "safety.notAvailable";

/** SQL true when a block stands between the two members, either way (bind `a` and `b` in order). */
export const BLOCKED_BETWEEN = (a: string, b: string) =>
  `EXISTS (SELECT 1 FROM blocks WHERE (blocker_id = ${a} AND blocked_id = ${b}) OR (blocker_id = ${b} AND blocked_id = ${a}))`;

/** A private comment (and its thread's replies) is seen by the item's owner, its author, and the thread's first author (decision 0051). */
export const SEES_COMMENT = (c: string, viewer: string) =>
  `(${c}.private = 0 OR ${viewer} = ${c}.user_id OR ${viewer} = (SELECT owner_id FROM content WHERE id = ${c}.content_id)
    OR ${viewer} = (SELECT r.user_id FROM comments r WHERE r.id = ${c}.parent_id))`;
