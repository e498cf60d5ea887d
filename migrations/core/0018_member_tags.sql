-- A member's profile tags: the spec's defaults (stored by key, translated when shown) and their own
-- words. How many a member may have depends on their membership level (app/lib/limits.ts).
CREATE TABLE member_tags (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  user_id INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  tag TEXT NOT NULL,
  custom INTEGER NOT NULL CHECK (custom IN (0, 1)),
  created_at INTEGER NOT NULL,
  UNIQUE (user_id, tag COLLATE NOCASE)
);
