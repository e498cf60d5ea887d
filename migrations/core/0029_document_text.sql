-- Documents' own text in search (issue 17, docs/decisions/0030-document-text.md). A queue job reads
-- each uploaded PDF's text into document_text, which has its own index; the fields' index gains the
-- co-authors' names, so a document is found by what it says and by who wrote it.

-- The extraction's state, for the owner: NULL for videos, 'pending' until the job has run, 'done', or
-- 'none' with the reason in text_note (no-text, encrypted, broken, too-large, failed).
ALTER TABLE content ADD COLUMN text_state TEXT;
ALTER TABLE content ADD COLUMN text_note TEXT;
-- When the job was last queued: the cron queues again what stayed pending too long. Its runs, counted
-- as each starts, so one that never finished (the isolate ran out of memory) counts too.
ALTER TABLE content ADD COLUMN text_queued_at INTEGER;
ALTER TABLE content ADD COLUMN text_attempts INTEGER NOT NULL DEFAULT 0;
UPDATE content SET text_state = 'pending', text_queued_at = 0 WHERE kind = 'document';
CREATE INDEX content_text_pending ON content (text_queued_at) WHERE text_state = 'pending';

-- The text, pages joined by form feeds (U+000C), bounded in length; pages read of page_count.
CREATE TABLE document_text (
  content_id INTEGER PRIMARY KEY REFERENCES content (id) ON DELETE CASCADE,
  body TEXT NOT NULL,
  pages INTEGER NOT NULL,
  page_count INTEGER NOT NULL,
  extracted_at INTEGER NOT NULL
);

-- The fields' index again, with the co-authors' names (an FTS5 table cannot gain columns).
DROP TRIGGER content_fts_insert;
DROP TRIGGER content_fts_update;
DROP TRIGGER content_fts_delete;
DROP TABLE content_fts;
CREATE VIRTUAL TABLE content_fts USING fts5(title, summary, content, keywords, authors, tokenize = 'trigram');
INSERT INTO content_fts (rowid, title, summary, content, keywords, authors)
  SELECT id, title, summary, content, keywords,
    coalesce((SELECT group_concat(json_extract(a.value, '$.name'), ', ') FROM json_each(content.authors) a), '')
  FROM content;

CREATE TRIGGER content_fts_insert AFTER INSERT ON content BEGIN
  INSERT INTO content_fts (rowid, title, summary, content, keywords, authors)
  VALUES (new.id, new.title, new.summary, new.content, new.keywords,
    coalesce((SELECT group_concat(json_extract(a.value, '$.name'), ', ') FROM json_each(new.authors) a), ''));
END;
CREATE TRIGGER content_fts_update AFTER UPDATE OF title, summary, content, keywords, authors ON content BEGIN
  DELETE FROM content_fts WHERE rowid = old.id;
  INSERT INTO content_fts (rowid, title, summary, content, keywords, authors)
  VALUES (new.id, new.title, new.summary, new.content, new.keywords,
    coalesce((SELECT group_concat(json_extract(a.value, '$.name'), ', ') FROM json_each(new.authors) a), ''));
END;
CREATE TRIGGER content_fts_delete AFTER DELETE ON content BEGIN
  DELETE FROM content_fts WHERE rowid = old.id;
END;

-- The text's own index: trigrams without positions (detail=none), over document_text itself
-- (external content), searched with LIKE, which the trigram index answers and then checks against
-- the text. About a third of the size of a positional index holding its own copy (decision 0030).
CREATE VIRTUAL TABLE document_fts USING fts5(body, content = 'document_text', content_rowid = 'content_id', tokenize = 'trigram', detail = 'none');
CREATE TRIGGER document_fts_insert AFTER INSERT ON document_text BEGIN
  INSERT INTO document_fts (rowid, body) VALUES (new.content_id, new.body);
END;
CREATE TRIGGER document_fts_update AFTER UPDATE OF body ON document_text BEGIN
  INSERT INTO document_fts (document_fts, rowid, body) VALUES ('delete', old.content_id, old.body);
  INSERT INTO document_fts (rowid, body) VALUES (new.content_id, new.body);
END;
CREATE TRIGGER document_fts_delete AFTER DELETE ON document_text BEGIN
  INSERT INTO document_fts (document_fts, rowid, body) VALUES ('delete', old.content_id, old.body);
END;
