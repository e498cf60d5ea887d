-- Statistics over time (docs/decisions/0039-statistics.md). Readings (views, file downloads,
-- citation exports) reach D1 through the stats queue, folded per item, day and reader type; likes,
-- comments and followers are counted from their own rows when a page asks.

-- One row per item, day (on its owner's clocks), kind and reader's account type.
CREATE TABLE stat_days (
  owner_id INTEGER NOT NULL,
  content_id INTEGER NOT NULL REFERENCES content (id) ON DELETE CASCADE,
  day TEXT NOT NULL,
  kind TEXT NOT NULL CHECK (kind IN ('view', 'download', 'export')),
  reader_type INTEGER NOT NULL CHECK (reader_type IN (1, 2)),
  -- Counted the COUNTER way: the same member, item and kind within 30 seconds once.
  n INTEGER NOT NULL,
  -- Distinct members that day (the ranking counts these, as it counted view rows before).
  readers INTEGER NOT NULL,
  PRIMARY KEY (owner_id, content_id, day, kind, reader_type)
) WITHOUT ROWID;

-- The readings folded lately, kept two days: a redelivered event is known by its id, a second
-- open within 30 seconds and a second download the same day by their member, item and kind.
CREATE TABLE stat_hits (
  id TEXT PRIMARY KEY,
  member_id INTEGER NOT NULL,
  content_id INTEGER NOT NULL,
  kind TEXT NOT NULL,
  day TEXT NOT NULL,
  at INTEGER NOT NULL
);
CREATE INDEX stat_hits_reader ON stat_hits (member_id, content_id, kind, at);
CREATE INDEX stat_hits_at ON stat_hits (at);

-- The view rows counted so far become days (UTC days, as they were kept), then go.
INSERT INTO stat_days (owner_id, content_id, day, kind, reader_type, n, readers)
  SELECT c.owner_id, v.content_id, v.day, 'view', coalesce(u.account_type, 1), count(*), count(*)
    FROM content_views v JOIN content c ON c.id = v.content_id LEFT JOIN users u ON u.id = v.user_id
    GROUP BY c.owner_id, v.content_id, v.day, coalesce(u.account_type, 1);
DROP TABLE content_views;

-- What the pages read without going through every item's days: each item's months (the item table
-- over 12 months or all time, read in key order) and each owner's days over all their items (the charts).
CREATE TABLE stat_months (
  owner_id INTEGER NOT NULL,
  content_id INTEGER NOT NULL REFERENCES content (id) ON DELETE CASCADE,
  month TEXT NOT NULL,
  kind TEXT NOT NULL,
  reader_type INTEGER NOT NULL,
  n INTEGER NOT NULL,
  readers INTEGER NOT NULL,
  PRIMARY KEY (owner_id, content_id, month, kind, reader_type)
) WITHOUT ROWID;
-- The item table over 30 days reads this month's rows only.
CREATE INDEX stat_months_recent ON stat_months (owner_id, month, n);
-- Kept when an item goes: the owner's totals are what happened.
CREATE TABLE stat_owner_days (
  owner_id INTEGER NOT NULL,
  day TEXT NOT NULL,
  kind TEXT NOT NULL,
  n INTEGER NOT NULL,
  PRIMARY KEY (owner_id, day, kind)
) WITHOUT ROWID;
-- ... and the days of the month before it.
CREATE INDEX stat_days_recent ON stat_days (owner_id, day, n);

INSERT INTO stat_months (owner_id, content_id, month, kind, reader_type, n, readers)
  SELECT owner_id, content_id, substr(day, 1, 7), kind, reader_type, sum(n), sum(readers) FROM stat_days
    GROUP BY owner_id, content_id, substr(day, 1, 7), kind, reader_type;
INSERT INTO stat_owner_days (owner_id, day, kind, n)
  SELECT owner_id, day, kind, sum(n) FROM stat_days GROUP BY owner_id, day, kind;

-- From now on the fold writes an item's days only; its months, its owner's days and the count on
-- cards follow in the same transaction (after the copies above, which the count already holds).
CREATE TRIGGER stat_days_new AFTER INSERT ON stat_days
BEGIN
  INSERT INTO stat_months (owner_id, content_id, month, kind, reader_type, n, readers)
    VALUES (NEW.owner_id, NEW.content_id, substr(NEW.day, 1, 7), NEW.kind, NEW.reader_type, NEW.n, NEW.readers)
    ON CONFLICT DO UPDATE SET n = n + excluded.n, readers = readers + excluded.readers;
  INSERT INTO stat_owner_days (owner_id, day, kind, n) VALUES (NEW.owner_id, NEW.day, NEW.kind, NEW.n)
    ON CONFLICT DO UPDATE SET n = n + excluded.n;
  UPDATE content SET views = views + NEW.n WHERE id = NEW.content_id AND NEW.kind = 'view';
END;
CREATE TRIGGER stat_days_more AFTER UPDATE OF n, readers ON stat_days
BEGIN
  INSERT INTO stat_months (owner_id, content_id, month, kind, reader_type, n, readers)
    VALUES (NEW.owner_id, NEW.content_id, substr(NEW.day, 1, 7), NEW.kind, NEW.reader_type, NEW.n - OLD.n, NEW.readers - OLD.readers)
    ON CONFLICT DO UPDATE SET n = n + excluded.n, readers = readers + excluded.readers;
  INSERT INTO stat_owner_days (owner_id, day, kind, n) VALUES (NEW.owner_id, NEW.day, NEW.kind, NEW.n - OLD.n)
    ON CONFLICT DO UPDATE SET n = n + excluded.n;
  UPDATE content SET views = views + NEW.n - OLD.n WHERE id = NEW.content_id AND NEW.kind = 'view';
END;

-- Followers per member over time (likes and comments have theirs per item).
CREATE INDEX follows_followee_time ON follows (followee_id, created_at);

-- Each published recomputation's score and rank per member, kept (a run's own rows are pruned).
CREATE TABLE score_history (
  user_id INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  run_id INTEGER NOT NULL,
  as_of INTEGER NOT NULL,
  score REAL NOT NULL,
  rank INTEGER NOT NULL,
  PRIMARY KEY (user_id, run_id)
) WITHOUT ROWID;
INSERT INTO score_history (user_id, run_id, as_of, score, rank)
  SELECT s.user_id, s.run_id, r.as_of, s.score, RANK() OVER (ORDER BY s.score DESC)
    FROM credit_scores s JOIN score_runs r ON r.id = s.run_id JOIN users u ON u.id = s.user_id AND u.deleted_at IS NULL
    WHERE r.id = (SELECT max(id) FROM score_runs WHERE published_at IS NOT NULL);
