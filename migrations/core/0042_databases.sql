-- Data past one database (issue 46, docs/decisions/0045-databases.md): document text and caption
-- cues move to text shards (migrations/text), statistics to their own database (migrations/stats).
-- The core keeps what pages join on: items, their captions' languages and budget, and where each
-- item's bulk lives.

-- The text shard of an item's text and cues, chosen when the item is made and never changed.
ALTER TABLE content ADD COLUMN text_shard INTEGER NOT NULL DEFAULT 1;
-- What the owner is told of the text (read of all pages?), kept here so the item page reads no shard.
ALTER TABLE content ADD COLUMN text_pages INTEGER;
ALTER TABLE content ADD COLUMN text_page_count INTEGER;
-- The readers the statistics database had counted for the item when last copied into `views`.
ALTER TABLE content ADD COLUMN views_synced INTEGER NOT NULL DEFAULT 0;

-- No deployment holds data yet (decision 0045): the text is read again into the shards by the
-- cron (pending documents are queued), and what was in the moved tables goes with them.
DROP TRIGGER document_fts_insert;
DROP TRIGGER document_fts_update;
DROP TRIGGER document_fts_delete;
DROP TABLE document_fts;
DROP TABLE document_text;
UPDATE content SET text_state = 'pending', text_note = NULL, text_queued_at = 0, text_attempts = 0 WHERE kind = 'document';

DROP TRIGGER caption_fts_insert;
DROP TRIGGER caption_fts_delete;
DROP TABLE caption_fts;
DROP TABLE caption_cues;
DROP TABLE captions;
-- A caption set's row; its cues are in the item's shard under `write_key`. A write makes its row
-- 'pending' (the budget and the languages are checked by that statement), stores the cues, then
-- makes it 'ready' and drops the set it replaces: only ready sets are shown or searched.
CREATE TABLE captions (
  id INTEGER PRIMARY KEY,
  content_id INTEGER NOT NULL REFERENCES content (id) ON DELETE CASCADE,
  lang TEXT NOT NULL,
  source TEXT NOT NULL CHECK (source IN ('owner', 'automatic')),
  state TEXT NOT NULL CHECK (state IN ('pending', 'ready')),
  cue_count INTEGER NOT NULL,
  duration_ms INTEGER NOT NULL,
  write_key TEXT NOT NULL UNIQUE,
  text_bytes INTEGER NOT NULL,
  updated_at INTEGER NOT NULL
);
CREATE UNIQUE INDEX captions_ready ON captions (content_id, lang) WHERE state = 'ready';
CREATE INDEX captions_item ON captions (content_id);

DROP TRIGGER stat_days_new;
DROP TRIGGER stat_days_more;
DROP TABLE stat_days;
DROP TABLE stat_months;
DROP TABLE stat_owner_days;
DROP TABLE stat_hits;

-- What another database may hold that the core no longer vouches for: written before the other
-- database's write (or in the batch that deletes what it belonged to), removed once that write is
-- whole. A follow-up job makes the other database agree with the core for the row's subject; the cron
-- queues it again for rows older than a grace period (a write that stopped between its two halves).
CREATE TABLE shard_followups (
  id INTEGER PRIMARY KEY,
  -- 'text:<n>' (subject: an item; its text and cues in shard n), 'stats' (an item), 'stats-member' (a member).
  target TEXT NOT NULL,
  subject INTEGER NOT NULL,
  queued_at INTEGER NOT NULL
);
CREATE INDEX shard_followups_queued ON shard_followups (queued_at);

-- Each database's size as the cron last measured it: new items go to text shards below their limit.
CREATE TABLE database_sizes (
  name TEXT PRIMARY KEY,
  bytes INTEGER NOT NULL,
  measured_at INTEGER NOT NULL
);
