-- The points ledger (one row per award; daily caps are checked when awarding) and the stored credit
-- scores the cron trigger computes (ranking pages read these, never compute on the fly).
CREATE TABLE points (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  user_id INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  reason TEXT NOT NULL,
  amount INTEGER NOT NULL,
  day TEXT NOT NULL,
  created_at INTEGER NOT NULL
);
CREATE INDEX points_user_day ON points (user_id, reason, day);

CREATE TABLE credit_scores (
  user_id INTEGER PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
  score REAL NOT NULL,
  breakdown TEXT NOT NULL,
  computed_at INTEGER NOT NULL
);
CREATE INDEX credit_scores_score ON credit_scores (score DESC);
