-- Resumable uploads (JavaScript path): one R2 multipart upload per file, its parts recorded as they land
-- so a dropped connection or a reloaded page continues where it stopped.
CREATE TABLE uploads (
  id TEXT PRIMARY KEY,
  owner_id INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  object_key TEXT NOT NULL,
  r2_upload_id TEXT NOT NULL,
  size INTEGER NOT NULL,
  file_type TEXT,
  parts TEXT NOT NULL DEFAULT '{}',
  completed INTEGER NOT NULL DEFAULT 0,
  created_at INTEGER NOT NULL
);
CREATE INDEX uploads_owner ON uploads (owner_id);
