-- A member's profile: the settings fields of spec section 3, one row once they first save it.
-- What others may see (names, academic field, research, country) is shown only when `public` is 1.
CREATE TABLE profiles (
  user_id INTEGER PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
  sex TEXT NOT NULL CHECK (sex IN ('female', 'male', 'other', 'unsaid')),
  birthday TEXT NOT NULL,
  address TEXT NOT NULL,
  first_name TEXT NOT NULL,
  middle_name TEXT NOT NULL,
  family_name TEXT NOT NULL,
  country TEXT NOT NULL,
  nationality TEXT NOT NULL,
  academic TEXT NOT NULL,
  research TEXT NOT NULL,
  website TEXT NOT NULL,
  phone TEXT NOT NULL,
  purpose TEXT NOT NULL,
  -- A facilitator's organisation (null for individuals)
  abbreviation TEXT,
  industry TEXT,
  organisation_phone TEXT,
  description TEXT,
  legal TEXT,
  organisation_email TEXT,
  public INTEGER NOT NULL DEFAULT 0 CHECK (public IN (0, 1)),
  -- What member search matches besides the nick name: the public fields, the country in every language.
  search_text TEXT NOT NULL DEFAULT '',
  updated_at INTEGER NOT NULL
);

-- Member search gains the public profile: the index is rebuilt with a third column, kept by
-- triggers on both tables.
DROP TRIGGER member_fts_insert;
DROP TRIGGER member_fts_update;
DROP TRIGGER member_fts_delete;
DROP TABLE member_fts;
CREATE VIRTUAL TABLE member_fts USING fts5(nick_name, organisation, profile, tokenize = 'trigram');
INSERT INTO member_fts (rowid, nick_name, organisation, profile)
  SELECT id, nick_name, coalesce(organisation, ''), '' FROM users;
CREATE TRIGGER member_fts_insert AFTER INSERT ON users BEGIN
  INSERT INTO member_fts (rowid, nick_name, organisation, profile) VALUES (new.id, new.nick_name, coalesce(new.organisation, ''), '');
END;
CREATE TRIGGER member_fts_update AFTER UPDATE OF nick_name, organisation ON users BEGIN
  DELETE FROM member_fts WHERE rowid = old.id;
  INSERT INTO member_fts (rowid, nick_name, organisation, profile)
    SELECT new.id, new.nick_name, coalesce(new.organisation, ''),
      coalesce((SELECT search_text FROM profiles WHERE user_id = new.id AND public = 1), '');
END;
CREATE TRIGGER member_fts_delete AFTER DELETE ON users BEGIN
  DELETE FROM member_fts WHERE rowid = old.id;
END;
CREATE TRIGGER member_fts_profile_insert AFTER INSERT ON profiles BEGIN
  DELETE FROM member_fts WHERE rowid = new.user_id;
  INSERT INTO member_fts (rowid, nick_name, organisation, profile)
    SELECT id, nick_name, coalesce(organisation, ''), CASE WHEN new.public = 1 THEN new.search_text ELSE '' END FROM users WHERE id = new.user_id;
END;
CREATE TRIGGER member_fts_profile_update AFTER UPDATE ON profiles BEGIN
  DELETE FROM member_fts WHERE rowid = new.user_id;
  INSERT INTO member_fts (rowid, nick_name, organisation, profile)
    SELECT id, nick_name, coalesce(organisation, ''), CASE WHEN new.public = 1 THEN new.search_text ELSE '' END FROM users WHERE id = new.user_id;
END;
