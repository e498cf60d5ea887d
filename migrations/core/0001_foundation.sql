-- Each run of the scheduled handler, so operators can see that cron fires and what it did.
CREATE TABLE cron_runs (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  cron TEXT NOT NULL,
  scheduled_at INTEGER NOT NULL,
  finished_at INTEGER NOT NULL,
  summary TEXT NOT NULL DEFAULT ''
);
CREATE INDEX cron_runs_finished_at ON cron_runs (finished_at);
