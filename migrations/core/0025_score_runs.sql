-- Credit scores are recomputed through the job queue in bounded batches of members (docs/decisions/0025).
-- A run's scores are written under its id; the ranking reads the newest *published* run, and a run is
-- published by the statement that records its last batch, so members never see a half-updated ranking.
CREATE TABLE score_runs (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  -- The moment the scores are counted at: every batch counts the same 30 days, however late it runs.
  as_of INTEGER NOT NULL,
  batches INTEGER NOT NULL,
  started_at INTEGER NOT NULL,
  published_at INTEGER
);
CREATE INDEX score_runs_published ON score_runs (published_at) WHERE published_at IS NOT NULL;

-- One row per batch done: a batch delivered twice is recorded once.
CREATE TABLE score_run_batches (
  run_id INTEGER NOT NULL REFERENCES score_runs (id) ON DELETE CASCADE,
  batch INTEGER NOT NULL,
  members INTEGER NOT NULL,
  done_at INTEGER NOT NULL,
  PRIMARY KEY (run_id, batch)
) WITHOUT ROWID;

-- The scores computed so far become run 1, already published.
INSERT INTO score_runs (id, as_of, batches, started_at, published_at)
  SELECT 1, max(computed_at), 0, max(computed_at), max(computed_at) FROM credit_scores HAVING count(*) > 0;

CREATE TABLE run_scores (
  run_id INTEGER NOT NULL,
  user_id INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  score REAL NOT NULL,
  breakdown TEXT NOT NULL,
  PRIMARY KEY (run_id, user_id)
) WITHOUT ROWID;
INSERT INTO run_scores (run_id, user_id, score, breakdown) SELECT 1, user_id, score, breakdown FROM credit_scores;
DROP TABLE credit_scores;
ALTER TABLE run_scores RENAME TO credit_scores;
CREATE INDEX credit_scores_rank ON credit_scores (run_id, score DESC);
-- A batch prunes older runs' rows in its own range of members.
CREATE INDEX credit_scores_member ON credit_scores (user_id, run_id);

-- Likes received are counted per owner's items in a batch: reach them by item.
CREATE INDEX likes_content ON likes (content_id, created_at);
