-- Files whose rows are gone, until R2 has deleted them (issue 30: a deletion that failed between the
-- database and R2 left files no row referenced, never removed). Written in the same batch as the rows'
-- deletion; the request deletes the objects and these rows after it, and the cron sweeps what is left.
CREATE TABLE object_deletions (
  key TEXT PRIMARY KEY,
  queued_at INTEGER NOT NULL
);
