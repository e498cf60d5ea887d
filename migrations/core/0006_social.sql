-- Likes, follows and comments. Likes and follows are keyed by their pair, so a double submit counts once.
CREATE TABLE likes (
  user_id INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  content_id INTEGER NOT NULL REFERENCES content (id) ON DELETE CASCADE,
  created_at INTEGER NOT NULL,
  PRIMARY KEY (user_id, content_id)
);

CREATE TABLE follows (
  follower_id INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  followee_id INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  created_at INTEGER NOT NULL,
  PRIMARY KEY (follower_id, followee_id),
  CHECK (follower_id <> followee_id)
);
CREATE INDEX follows_followee ON follows (followee_id);

CREATE TABLE comments (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  content_id INTEGER NOT NULL REFERENCES content (id) ON DELETE CASCADE,
  user_id INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  body TEXT NOT NULL,
  created_at INTEGER NOT NULL
);
CREATE INDEX comments_content ON comments (content_id, created_at);
