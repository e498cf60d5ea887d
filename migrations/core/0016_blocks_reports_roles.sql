-- Members protect themselves (issue 11): blocks, reports to a moderation queue, and roles granted by
-- an operator (never by a form).

-- A block stops the blocked member messaging, following, and commenting on the blocker's uploads.
CREATE TABLE blocks (
  blocker_id INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  blocked_id INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  created_at INTEGER NOT NULL,
  PRIMARY KEY (blocker_id, blocked_id),
  CHECK (blocker_id <> blocked_id)
);
CREATE INDEX blocks_blocked ON blocks (blocked_id, blocker_id);

-- One report per member and target; a moderator's decision resolves every open report on the target.
CREATE TABLE reports (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  reporter_id INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  target_type TEXT NOT NULL CHECK (target_type IN ('content', 'comment', 'message', 'member')),
  target_id INTEGER NOT NULL,
  reason TEXT NOT NULL CHECK (reason IN ('spam', 'harassment', 'copyright', 'misinformation', 'other')),
  details TEXT NOT NULL DEFAULT '',
  created_at INTEGER NOT NULL,
  resolved_at INTEGER,
  resolved_by INTEGER REFERENCES users (id) ON DELETE SET NULL,
  outcome TEXT,
  UNIQUE (reporter_id, target_type, target_id)
);
CREATE INDEX reports_open ON reports (resolved_at, created_at);
CREATE INDEX reports_target ON reports (target_type, target_id);

-- Roles beyond "member" (spec section 6): granted with `npm run role`, never through the app.
CREATE TABLE member_roles (
  user_id INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  role TEXT NOT NULL CHECK (role IN ('moderator', 'reviewer')),
  granted_at INTEGER NOT NULL,
  PRIMARY KEY (user_id, role)
);

-- A moderator hides an item (it becomes private to its owner until restored, when the owner's own
-- choice, kept in hidden_publicize, comes back), a comment or a message.
ALTER TABLE content ADD COLUMN hidden_at INTEGER;
ALTER TABLE content ADD COLUMN hidden_publicize INTEGER;
ALTER TABLE comments ADD COLUMN hidden_at INTEGER;
ALTER TABLE messages ADD COLUMN hidden_at INTEGER;
-- A suspended member cannot sign in; the reason is what they are told.
ALTER TABLE users ADD COLUMN suspended_reason TEXT
  CHECK (suspended_reason IS NULL OR suspended_reason IN ('spam', 'harassment', 'copyright', 'misinformation', 'other'));
