-- Versions (issue 35, docs/decisions/0042-versions-and-licences.md). The item keeps one identity
-- (its address, likes, comments, follows, statistics); each version has its number, date, note,
-- file, thumbnail, licence and, optionally, a DOI of its own. The content row holds the latest
-- version's file (what pages, search and the text job read); `version` says which number that is.
ALTER TABLE content ADD COLUMN version INTEGER NOT NULL DEFAULT 1;

CREATE TABLE content_versions (
  content_id INTEGER NOT NULL REFERENCES content (id) ON DELETE CASCADE,
  number INTEGER NOT NULL,
  note TEXT NOT NULL DEFAULT '',
  title TEXT NOT NULL,
  file_key TEXT NOT NULL,
  file_size INTEGER NOT NULL,
  file_type TEXT NOT NULL,
  thumbnail_key TEXT NOT NULL,
  thumbnail_type TEXT NOT NULL,
  doi TEXT,
  license TEXT,
  created_at INTEGER NOT NULL,
  -- The form's key: the same post twice makes one version.
  client_key TEXT,
  PRIMARY KEY (content_id, number)
) WITHOUT ROWID;
CREATE UNIQUE INDEX content_versions_client_key ON content_versions (content_id, client_key) WHERE client_key IS NOT NULL;

-- Every item so far is its version 1.
INSERT INTO content_versions (content_id, number, title, file_key, file_size, file_type, thumbnail_key, thumbnail_type, license, created_at)
  SELECT id, 1, title, file_key, file_size, file_type, thumbnail_key, thumbnail_type, license, created_at FROM content;

CREATE TRIGGER content_versions_first AFTER INSERT ON content BEGIN
  INSERT INTO content_versions (content_id, number, title, file_key, file_size, file_type, thumbnail_key, thumbnail_type, license, created_at)
    VALUES (NEW.id, 1, NEW.title, NEW.file_key, NEW.file_size, NEW.file_type, NEW.thumbnail_key, NEW.thumbnail_type, NEW.license, NEW.created_at);
END;

-- The owner's edit of the licence is the latest version's; earlier versions keep theirs.
CREATE TRIGGER content_versions_license AFTER UPDATE OF license ON content BEGIN
  UPDATE content_versions SET license = NEW.license WHERE content_id = NEW.id AND number = NEW.version;
END;
