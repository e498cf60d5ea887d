-- Research identity (issue 34, docs/decisions/0041-orcid.md): a member's ORCID iD, authenticated by
-- signing in to ORCID (never typed), with the name ORCID gave; one account per iD.
ALTER TABLE users ADD COLUMN orcid TEXT;
ALTER TABLE users ADD COLUMN orcid_name TEXT;
ALTER TABLE users ADD COLUMN orcid_linked_at INTEGER;
CREATE UNIQUE INDEX users_orcid ON users (orcid) WHERE orcid IS NOT NULL;

-- A trip to ORCID under way: the SHA-256 of its state, its nonce and what it is for. The callback
-- spends it (once); the cron removes those older than ten minutes.
CREATE TABLE orcid_states (
  state_hash TEXT PRIMARY KEY,
  nonce TEXT NOT NULL,
  intent TEXT NOT NULL CHECK (intent IN ('login', 'link')),
  user_id INTEGER REFERENCES users (id) ON DELETE CASCADE,
  redirect TEXT,
  created_at INTEGER NOT NULL
);

-- An authenticated iD without an account yet: sign-up finishes with it (the email still verified by
-- a code) within thirty minutes.
CREATE TABLE orcid_signups (
  token_hash TEXT PRIMARY KEY,
  orcid TEXT NOT NULL,
  name TEXT NOT NULL,
  created_at INTEGER NOT NULL
);

-- Which items list an iD among their co-authors, kept from content.authors by the triggers below,
-- so a member's Space finds the items they co-authored by an index.
CREATE TABLE content_author_ids (
  orcid TEXT NOT NULL,
  content_id INTEGER NOT NULL REFERENCES content (id) ON DELETE CASCADE,
  PRIMARY KEY (orcid, content_id)
) WITHOUT ROWID;
CREATE INDEX content_author_ids_content ON content_author_ids (content_id);

INSERT OR IGNORE INTO content_author_ids (orcid, content_id)
  SELECT json_extract(a.value, '$.orcid'), c.id FROM content c, json_each(c.authors) a WHERE json_extract(a.value, '$.orcid') IS NOT NULL;

CREATE TRIGGER content_author_ids_insert AFTER INSERT ON content BEGIN
  INSERT OR IGNORE INTO content_author_ids (orcid, content_id)
    SELECT json_extract(value, '$.orcid'), NEW.id FROM json_each(NEW.authors) WHERE json_extract(value, '$.orcid') IS NOT NULL;
END;

CREATE TRIGGER content_author_ids_update AFTER UPDATE OF authors ON content BEGIN
  DELETE FROM content_author_ids WHERE content_id = NEW.id;
  INSERT OR IGNORE INTO content_author_ids (orcid, content_id)
    SELECT json_extract(value, '$.orcid'), NEW.id FROM json_each(NEW.authors) WHERE json_extract(value, '$.orcid') IS NOT NULL;
END;

-- The year a work was published (a DOI's record gives it); citations use it when given.
ALTER TABLE content ADD COLUMN published_year INTEGER CHECK (published_year BETWEEN 1000 AND 9999);
