-- Documents (PDF) and videos (MP4), tagged with one of the 17 goals. Files live in R2 under
-- server-chosen keys; a private item (publicize = 0) is visible only to its owner.
CREATE TABLE content (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  owner_id INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  kind TEXT NOT NULL CHECK (kind IN ('document', 'video')),
  sdg INTEGER NOT NULL CHECK (sdg BETWEEN 1 AND 17),
  title TEXT NOT NULL,
  summary TEXT NOT NULL,
  content TEXT NOT NULL,
  keywords TEXT NOT NULL,
  publicize INTEGER NOT NULL CHECK (publicize IN (0, 1)),
  file_key TEXT NOT NULL,
  file_size INTEGER NOT NULL,
  file_type TEXT NOT NULL,
  thumbnail_key TEXT NOT NULL,
  thumbnail_type TEXT NOT NULL,
  views INTEGER NOT NULL DEFAULT 0,
  likes INTEGER NOT NULL DEFAULT 0,
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL
);
CREATE INDEX content_owner ON content (owner_id);
CREATE INDEX content_public_recent ON content (publicize, created_at);

-- One view per member per item per day.
CREATE TABLE content_views (
  content_id INTEGER NOT NULL REFERENCES content (id) ON DELETE CASCADE,
  user_id INTEGER NOT NULL,
  day TEXT NOT NULL,
  PRIMARY KEY (content_id, user_id, day)
);
