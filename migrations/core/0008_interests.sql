-- A member's interests: goals (1-17) they want to see more of. At most five (enforced in the one
-- statement that adds them, so two quick posts cannot make six).
CREATE TABLE interests (
  user_id INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  sdg INTEGER NOT NULL CHECK (sdg BETWEEN 1 AND 17),
  created_at INTEGER NOT NULL,
  PRIMARY KEY (user_id, sdg)
);

-- The member page lists whom a member follows, newest first.
CREATE INDEX follows_follower ON follows (follower_id, created_at);
-- The member page lists a member's uploads, newest first.
CREATE INDEX content_owner_recent ON content (owner_id, created_at);
