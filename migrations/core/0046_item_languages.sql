-- Items in three languages (issue 50, docs/decisions/0050-item-languages.md): the language an item's
-- own title and abstract are written in (BCP 47; NULL for items from before, not guessed), and its
-- title and abstract in the interface's languages, each the author's translation or a machine's
-- suggestion. A new version keeps them (they belong to the item, like its captions).
ALTER TABLE content ADD COLUMN language TEXT;

-- A machine's text is 'pending' while its job runs (empty until then), 'suggested' until its owner
-- accepts it ('shown', still labelled a machine's) or drops it; the owner's own text is 'shown'.
CREATE TABLE item_texts (
  content_id INTEGER NOT NULL REFERENCES content(id) ON DELETE CASCADE,
  lang TEXT NOT NULL CHECK (lang IN ('en', 'ja', 'zh')),
  title TEXT NOT NULL,
  summary TEXT NOT NULL,
  source TEXT NOT NULL CHECK (source IN ('author', 'machine')),
  state TEXT NOT NULL DEFAULT 'shown' CHECK (state IN ('pending', 'suggested', 'shown')),
  updated_at INTEGER NOT NULL,
  PRIMARY KEY (content_id, lang)
);

-- Machine suggestions a member asked for on a day (UTC), against their daily budget.
CREATE TABLE text_suggestion_days (
  owner_id INTEGER NOT NULL,
  day TEXT NOT NULL,
  n INTEGER NOT NULL,
  PRIMARY KEY (owner_id, day)
);

-- What search reads of an item's translations (decision 0050): the texts readers are shown, as one
-- JSON array on the item ([{"lang", "title", "summary"}]), kept by triggers, so the fields' index
-- and the short words' LIKE find an English paper by its Japanese abstract, and a hit can say which
-- language matched.
ALTER TABLE content ADD COLUMN texts TEXT NOT NULL DEFAULT '[]';

CREATE TRIGGER item_texts_shown_insert AFTER INSERT ON item_texts BEGIN
  UPDATE content SET texts = (SELECT json_group_array(json_object('lang', lang, 'title', title, 'summary', summary))
    FROM item_texts WHERE content_id = new.content_id AND state = 'shown') WHERE id = new.content_id;
END;
CREATE TRIGGER item_texts_shown_update AFTER UPDATE ON item_texts BEGIN
  UPDATE content SET texts = (SELECT json_group_array(json_object('lang', lang, 'title', title, 'summary', summary))
    FROM item_texts WHERE content_id = new.content_id AND state = 'shown') WHERE id = new.content_id;
END;
CREATE TRIGGER item_texts_shown_delete AFTER DELETE ON item_texts BEGIN
  UPDATE content SET texts = (SELECT json_group_array(json_object('lang', lang, 'title', title, 'summary', summary))
    FROM item_texts WHERE content_id = old.content_id AND state = 'shown') WHERE id = old.content_id;
END;

-- The fields' index again, with the translations (an FTS5 table cannot gain columns).
DROP TRIGGER content_fts_insert;
DROP TRIGGER content_fts_update;
DROP TRIGGER content_fts_delete;
DROP TABLE content_fts;
CREATE VIRTUAL TABLE content_fts USING fts5(title, summary, content, keywords, authors, texts, tokenize = 'trigram');
INSERT INTO content_fts (rowid, title, summary, content, keywords, authors, texts)
  SELECT id, title, summary, content, keywords,
    coalesce((SELECT group_concat(json_extract(a.value, '$.name'), ', ') FROM json_each(content.authors) a), ''), texts
  FROM content;

CREATE TRIGGER content_fts_insert AFTER INSERT ON content BEGIN
  INSERT INTO content_fts (rowid, title, summary, content, keywords, authors, texts)
  VALUES (new.id, new.title, new.summary, new.content, new.keywords,
    coalesce((SELECT group_concat(json_extract(a.value, '$.name'), ', ') FROM json_each(new.authors) a), ''), new.texts);
END;
CREATE TRIGGER content_fts_update AFTER UPDATE OF title, summary, content, keywords, authors, texts ON content BEGIN
  DELETE FROM content_fts WHERE rowid = old.id;
  INSERT INTO content_fts (rowid, title, summary, content, keywords, authors, texts)
  VALUES (new.id, new.title, new.summary, new.content, new.keywords,
    coalesce((SELECT group_concat(json_extract(a.value, '$.name'), ', ') FROM json_each(new.authors) a), ''), new.texts);
END;
CREATE TRIGGER content_fts_delete AFTER DELETE ON content BEGIN
  DELETE FROM content_fts WHERE rowid = old.id;
END;
