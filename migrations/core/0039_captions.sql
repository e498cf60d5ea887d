-- Videos' captions (issue 36, docs/decisions/0043-captions.md): one set of timed cues per video and
-- language, from the owner's WebVTT file or a speech-to-text provider ('automatic'). The cues are
-- the only copy: the .vtt a player reads is written from them, so what plays is what is searched.
CREATE TABLE captions (
  id INTEGER PRIMARY KEY,
  content_id INTEGER NOT NULL REFERENCES content (id) ON DELETE CASCADE,
  -- A BCP 47 tag: en, ja, zh, pt-BR…
  lang TEXT NOT NULL,
  source TEXT NOT NULL CHECK (source IN ('owner', 'automatic')),
  cue_count INTEGER NOT NULL,
  -- The end of the last cue, in ms.
  duration_ms INTEGER NOT NULL,
  -- Made by each write: its cues are inserted against this key, so a write that lost a race adds none.
  write_key TEXT NOT NULL UNIQUE,
  updated_at INTEGER NOT NULL,
  UNIQUE (content_id, lang)
);

-- Cue text as members read it, with U+200B between CJK characters so that the index below sees each
-- as a word (U+200B is refused in what members send, and removed whenever the text is shown).
CREATE TABLE caption_cues (
  id INTEGER PRIMARY KEY,
  caption_id INTEGER NOT NULL REFERENCES captions (id) ON DELETE CASCADE,
  start_ms INTEGER NOT NULL,
  end_ms INTEGER NOT NULL,
  body TEXT NOT NULL
);
CREATE INDEX caption_cues_caption ON caption_cues (caption_id);

-- The cues' own index: words with positions (phrases find "安全" as 安 then 全), English words by
-- their stem (Porter: "rivers" finds "river"), over caption_cues itself (external content). A cue
-- deleted, directly or with its item, leaves the index.
CREATE VIRTUAL TABLE caption_fts USING fts5(body, content = 'caption_cues', content_rowid = 'id', tokenize = 'porter unicode61 remove_diacritics 2');
CREATE TRIGGER caption_fts_insert AFTER INSERT ON caption_cues BEGIN
  INSERT INTO caption_fts (rowid, body) VALUES (new.id, new.body);
END;
CREATE TRIGGER caption_fts_delete AFTER DELETE ON caption_cues BEGIN
  INSERT INTO caption_fts (caption_fts, rowid, body) VALUES ('delete', old.id, old.body);
END;
