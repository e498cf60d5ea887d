-- Full-text search. The trigram tokenizer indexes every 3-character run, so Japanese and Chinese text
-- (no spaces between words) is found by any 3+ character substring; shorter queries use LIKE.
-- The indexes are rebuilt from their source tables (D1 export skips virtual tables).
CREATE VIRTUAL TABLE content_fts USING fts5(title, summary, content, keywords, tokenize = 'trigram');
INSERT INTO content_fts (rowid, title, summary, content, keywords) SELECT id, title, summary, content, keywords FROM content;

CREATE TRIGGER content_fts_insert AFTER INSERT ON content BEGIN
  INSERT INTO content_fts (rowid, title, summary, content, keywords) VALUES (new.id, new.title, new.summary, new.content, new.keywords);
END;
CREATE TRIGGER content_fts_update AFTER UPDATE OF title, summary, content, keywords ON content BEGIN
  DELETE FROM content_fts WHERE rowid = old.id;
  INSERT INTO content_fts (rowid, title, summary, content, keywords) VALUES (new.id, new.title, new.summary, new.content, new.keywords);
END;
CREATE TRIGGER content_fts_delete AFTER DELETE ON content BEGIN
  DELETE FROM content_fts WHERE rowid = old.id;
END;

CREATE VIRTUAL TABLE member_fts USING fts5(nick_name, organisation, tokenize = 'trigram');
INSERT INTO member_fts (rowid, nick_name, organisation) SELECT id, nick_name, coalesce(organisation, '') FROM users;
CREATE TRIGGER member_fts_insert AFTER INSERT ON users BEGIN
  INSERT INTO member_fts (rowid, nick_name, organisation) VALUES (new.id, new.nick_name, coalesce(new.organisation, ''));
END;
CREATE TRIGGER member_fts_update AFTER UPDATE OF nick_name, organisation ON users BEGIN
  DELETE FROM member_fts WHERE rowid = old.id;
  INSERT INTO member_fts (rowid, nick_name, organisation) VALUES (new.id, new.nick_name, coalesce(new.organisation, ''));
END;
CREATE TRIGGER member_fts_delete AFTER DELETE ON users BEGIN
  DELETE FROM member_fts WHERE rowid = old.id;
END;

-- Each member's recent searches (the page keeps the last ten distinct ones).
CREATE TABLE search_history (
  user_id INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  query TEXT NOT NULL,
  searched_at INTEGER NOT NULL,
  PRIMARY KEY (user_id, query)
);
