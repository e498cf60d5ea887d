-- Identity verification (spec sections 1 and 3): one row per submission. A member has at most one
-- pending submission; a rejected one may be followed by another. The ID photos live in R2 under
-- unguessable keys (`photos`, JSON name -> key) and are deleted a fixed time after the decision.
CREATE TABLE verifications (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  user_id INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  kind TEXT NOT NULL CHECK (kind IN ('personal', 'corporate')),
  fields TEXT NOT NULL,
  photos TEXT NOT NULL,
  status TEXT NOT NULL CHECK (status IN ('pending', 'approved', 'rejected')),
  reason TEXT,
  submitted_at INTEGER NOT NULL,
  decided_at INTEGER,
  decided_by INTEGER REFERENCES users (id) ON DELETE SET NULL,
  photos_deleted_at INTEGER
);
CREATE UNIQUE INDEX verifications_one_open ON verifications (user_id) WHERE status IN ('pending', 'approved');
CREATE INDEX verifications_queue ON verifications (status, submitted_at);
