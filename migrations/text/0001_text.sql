-- A text shard (issue 46, docs/decisions/0045-databases.md): the bulk of what items say, kept apart
-- from the core database. Each item's text and captions live in the one shard its `content.text_shard`
-- names; nothing here refers to a row of another database by a foreign key, so every cross-database
-- write is made whole by a follow-up (shard_followups in the core) rather than a constraint.

-- A document's text, pages joined by form feeds (U+000C), read from the PDF whose key is file_key:
-- the core keeps the item's current file, so text of an earlier version is known and not shown.
CREATE TABLE document_text (
  content_id INTEGER PRIMARY KEY,
  file_key TEXT NOT NULL,
  body TEXT NOT NULL,
  pages INTEGER NOT NULL,
  page_count INTEGER NOT NULL,
  extracted_at INTEGER NOT NULL
);

-- The text's index: trigrams without positions, over document_text itself (decision 0030).
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

-- Videos' caption cues (decision 0043), each set under the write key of its row in the core's
-- `captions`: cues whose key the core does not hold are a write that did not finish, and go.
CREATE TABLE caption_cues (
  id INTEGER PRIMARY KEY,
  caption_key TEXT NOT NULL,
  content_id INTEGER NOT NULL,
  lang TEXT NOT NULL,
  start_ms INTEGER NOT NULL,
  end_ms INTEGER NOT NULL,
  -- As members read it, with U+200B between CJK characters so the index sees each as a word.
  body TEXT NOT NULL,
  -- When the write stored it: a follow-up leaves alone what a write still under way may yet claim.
  written_at INTEGER NOT NULL
);
-- A set's cues in the order they were written (the index holds the id after the key).
CREATE INDEX caption_cues_set ON caption_cues (caption_key);
CREATE INDEX caption_cues_item ON caption_cues (content_id);

-- The cues' index: words with positions, English words by their stem (decision 0043).
CREATE VIRTUAL TABLE caption_fts USING fts5(body, content = 'caption_cues', content_rowid = 'id', tokenize = 'porter unicode61 remove_diacritics 2');
CREATE TRIGGER caption_fts_insert AFTER INSERT ON caption_cues BEGIN
  INSERT INTO caption_fts (rowid, body) VALUES (new.id, new.body);
END;
CREATE TRIGGER caption_fts_delete AFTER DELETE ON caption_cues BEGIN
  INSERT INTO caption_fts (caption_fts, rowid, body) VALUES ('delete', old.id, old.body);
END;
