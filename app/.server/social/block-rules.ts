// Blocks: a blocked member can no longer message the blocker, follow them or comment on their
// uploads, and hears only the neutral refusal any unavailable action gets. The checks live inside the
// writes they guard (`WHERE NOT EXISTS`), so a block and a follow racing cannot both win.
// What the other services check and answer for a block; they import this, not the block writes.

/** The one answer to anything a block refuses: it does not say that a block is why. */
export const NOT_AVAILABLE = "safety.notAvailable";

/** SQL true when a block stands between the two members, either way (bind `a` and `b` in order). */
export const BLOCKED_BETWEEN = (a: string, b: string) =>
  `EXISTS (SELECT 1 FROM blocks WHERE (blocker_id = ${a} AND blocked_id = ${b}) OR (blocker_id = ${b} AND blocked_id = ${a}))`;
