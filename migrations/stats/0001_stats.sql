-- The statistics database (issue 46, docs/decisions/0045-databases.md; the tables are decision
-- 0039's): a row per item, day, kind and reader type grows with every reading, so it lives apart from
-- the core. Nothing here refers to the core by a foreign key: the fold copies each item's owner and
-- kind from the core, an item's or account's rows go by a follow-up (shard_followups in the core),
-- and the count on cards is copied back to the core from `item_views`.

-- One row per item, day (on its owner's clocks), kind and reader's account type.
CREATE TABLE stat_days (
  owner_id INTEGER NOT NULL,
  content_id INTEGER NOT NULL,
  -- The item's kind ('document' or 'video'): the ranking counts readers per kind.
  item_kind TEXT NOT NULL,
  day TEXT NOT NULL,
  kind TEXT NOT NULL CHECK (kind IN ('view', 'download', 'export')),
  reader_type INTEGER NOT NULL CHECK (reader_type IN (1, 2)),
  -- Counted the COUNTER way: the same member, item and kind within 30 seconds once.
  n INTEGER NOT NULL,
  -- Distinct members that day.
  readers INTEGER NOT NULL,
  PRIMARY KEY (owner_id, content_id, day, kind, reader_type)
) WITHOUT ROWID;
CREATE INDEX stat_days_recent ON stat_days (owner_id, day, n);
CREATE INDEX stat_days_item ON stat_days (content_id);
-- The ranking's views: an owner's readers of one kind of item over the period, read from the index alone.
CREATE INDEX stat_days_views ON stat_days (owner_id, item_kind, day, readers) WHERE kind = 'view';

-- The readings folded lately, kept two days, to know a redelivery or a repeat.
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

-- Each item's months, and each owner's days over all their items (kept when an item goes).
CREATE TABLE stat_months (
  owner_id INTEGER NOT NULL,
  content_id INTEGER NOT NULL,
  month TEXT NOT NULL,
  kind TEXT NOT NULL,
  reader_type INTEGER NOT NULL,
  n INTEGER NOT NULL,
  readers INTEGER NOT NULL,
  PRIMARY KEY (owner_id, content_id, month, kind, reader_type)
) WITHOUT ROWID;
CREATE INDEX stat_months_recent ON stat_months (owner_id, month, n);
CREATE INDEX stat_months_item ON stat_months (content_id);
CREATE TABLE stat_owner_days (
  owner_id INTEGER NOT NULL,
  day TEXT NOT NULL,
  kind TEXT NOT NULL,
  n INTEGER NOT NULL,
  PRIMARY KEY (owner_id, day, kind)
) WITHOUT ROWID;

-- The count on cards ("most viewed": an item-day's distinct readers, decision 0039), which the core
-- copies into content.views; `changed_at` lets the cron copy what a failed fold did not.
CREATE TABLE item_views (
  content_id INTEGER PRIMARY KEY,
  readers INTEGER NOT NULL,
  changed_at INTEGER NOT NULL
);
CREATE INDEX item_views_changed ON item_views (changed_at);

-- The fold writes an item's days only; its months, its owner's days and its count follow here.
CREATE TRIGGER stat_days_new AFTER INSERT ON stat_days
BEGIN
  INSERT INTO stat_months (owner_id, content_id, month, kind, reader_type, n, readers)
    VALUES (NEW.owner_id, NEW.content_id, substr(NEW.day, 1, 7), NEW.kind, NEW.reader_type, NEW.n, NEW.readers)
    ON CONFLICT DO UPDATE SET n = n + excluded.n, readers = readers + excluded.readers;
  INSERT INTO stat_owner_days (owner_id, day, kind, n) VALUES (NEW.owner_id, NEW.day, NEW.kind, NEW.n)
    ON CONFLICT DO UPDATE SET n = n + excluded.n;
  INSERT INTO item_views (content_id, readers, changed_at) SELECT NEW.content_id, NEW.readers, unixepoch('subsec') * 1000 WHERE NEW.kind = 'view'
    ON CONFLICT DO UPDATE SET readers = readers + excluded.readers, changed_at = excluded.changed_at;
END;
CREATE TRIGGER stat_days_more AFTER UPDATE OF n, readers ON stat_days
BEGIN
  INSERT INTO stat_months (owner_id, content_id, month, kind, reader_type, n, readers)
    VALUES (NEW.owner_id, NEW.content_id, substr(NEW.day, 1, 7), NEW.kind, NEW.reader_type, NEW.n - OLD.n, NEW.readers - OLD.readers)
    ON CONFLICT DO UPDATE SET n = n + excluded.n, readers = readers + excluded.readers;
  INSERT INTO stat_owner_days (owner_id, day, kind, n) VALUES (NEW.owner_id, NEW.day, NEW.kind, NEW.n - OLD.n)
    ON CONFLICT DO UPDATE SET n = n + excluded.n;
  INSERT INTO item_views (content_id, readers, changed_at) SELECT NEW.content_id, NEW.readers - OLD.readers, unixepoch('subsec') * 1000 WHERE NEW.kind = 'view'
    ON CONFLICT DO UPDATE SET readers = readers + excluded.readers, changed_at = excluded.changed_at;
END;
