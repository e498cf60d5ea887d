-- Organisations by ROR, continued (issue 52, docs/decisions/0052).
--
-- The registry's record of each organisation a member linked or a funding reference named, as the
-- registry answered when it was last checked: what is shown and searched is kept with its source,
-- and every name it has (labels in each language, aliases, acronyms) is searchable.
-- An integer key of its own: the search index below is keyed on it, and a text key's hidden rowid may
-- be renumbered (VACUUM).
CREATE TABLE ror_records (
  id INTEGER PRIMARY KEY,
  ror_id TEXT NOT NULL UNIQUE,
  record TEXT NOT NULL CHECK (json_valid(record)),
  -- The name the registry shows, and every name it has, space-separated.
  name TEXT NOT NULL,
  names TEXT NOT NULL,
  checked_at INTEGER NOT NULL
);
-- Search finds organisations by any of their names, in any language (words of 3+ characters).
CREATE VIRTUAL TABLE ror_fts USING fts5(names, content = 'ror_records', content_rowid = 'id', tokenize = 'trigram');
CREATE TRIGGER ror_fts_insert AFTER INSERT ON ror_records BEGIN
  INSERT INTO ror_fts (rowid, names) VALUES (new.id, new.names);
END;
CREATE TRIGGER ror_fts_update AFTER UPDATE OF names ON ror_records BEGIN
  INSERT INTO ror_fts (ror_fts, rowid, names) VALUES ('delete', old.id, old.names);
  INSERT INTO ror_fts (rowid, names) VALUES (new.id, new.names);
END;
CREATE TRIGGER ror_fts_delete AFTER DELETE ON ror_records BEGIN
  INSERT INTO ror_fts (ror_fts, rowid, names) VALUES ('delete', old.id, old.names);
END;

-- A verification of an organisation can confirm its ROR record: the id linked when it was sent, and
-- the one a reviewer confirmed (the badge shows while the member keeps that one linked).
ALTER TABLE verifications ADD COLUMN ror TEXT;
ALTER TABLE users ADD COLUMN organisation_ror_confirmed TEXT;

-- Research by its funder, newest first.
CREATE INDEX item_funding_funder ON item_funding (funder_id, content_id) WHERE funder_id IS NOT NULL;

-- Member search finds a member by every name of the organisation they linked: the index's
-- organisation column is the name as typed and the record's names.
DROP TRIGGER member_fts_insert;
DROP TRIGGER member_fts_update;
DROP TRIGGER member_fts_profile_insert;
DROP TRIGGER member_fts_profile_update;
CREATE TRIGGER member_fts_insert AFTER INSERT ON users BEGIN
  INSERT INTO member_fts (rowid, nick_name, organisation, profile)
    VALUES (new.id, new.nick_name, coalesce(new.organisation, '') || coalesce(' ' || (SELECT names FROM ror_records WHERE ror_id = new.organisation_ror), ''), '');
END;
CREATE TRIGGER member_fts_update AFTER UPDATE OF nick_name, organisation, organisation_ror ON users BEGIN
  DELETE FROM member_fts WHERE rowid = old.id;
  INSERT INTO member_fts (rowid, nick_name, organisation, profile)
    SELECT new.id, new.nick_name, coalesce(new.organisation, '') || coalesce(' ' || (SELECT names FROM ror_records WHERE ror_id = new.organisation_ror), ''),
      coalesce((SELECT search_text FROM profiles WHERE user_id = new.id AND public = 1), '');
END;
CREATE TRIGGER member_fts_profile_insert AFTER INSERT ON profiles BEGIN
  DELETE FROM member_fts WHERE rowid = new.user_id;
  INSERT INTO member_fts (rowid, nick_name, organisation, profile)
    SELECT id, nick_name, coalesce(organisation, '') || coalesce(' ' || (SELECT names FROM ror_records WHERE ror_id = organisation_ror), ''),
      CASE WHEN new.public = 1 THEN new.search_text ELSE '' END FROM users WHERE id = new.user_id;
END;
CREATE TRIGGER member_fts_profile_update AFTER UPDATE ON profiles BEGIN
  DELETE FROM member_fts WHERE rowid = new.user_id;
  INSERT INTO member_fts (rowid, nick_name, organisation, profile)
    SELECT id, nick_name, coalesce(organisation, '') || coalesce(' ' || (SELECT names FROM ror_records WHERE ror_id = organisation_ror), ''),
      CASE WHEN new.public = 1 THEN new.search_text ELSE '' END FROM users WHERE id = new.user_id;
END;
