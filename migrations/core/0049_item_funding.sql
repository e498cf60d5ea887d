-- Funding on items (issue 52, docs/decisions/0052), with DataCite's names: who funded the work (a
-- name, and a ROR id or a Crossref Funder ID), the award's number, address and title. A funder
-- whose ROR id a member linked is that member (`funder_member`), who sees the work under "research
-- we supported": named by the author until they confirm it, or decline it (then it is not listed).
CREATE TABLE item_funding (
  id INTEGER PRIMARY KEY,
  content_id INTEGER NOT NULL REFERENCES content (id) ON DELETE CASCADE,
  funder_name TEXT NOT NULL,
  funder_id TEXT,
  funder_id_type TEXT CHECK (funder_id_type IN ('ROR', 'Crossref Funder ID')),
  award_number TEXT NOT NULL DEFAULT '',
  award_uri TEXT NOT NULL DEFAULT '',
  award_title TEXT NOT NULL DEFAULT '',
  funder_member INTEGER REFERENCES users (id) ON DELETE SET NULL,
  state TEXT NOT NULL DEFAULT 'named' CHECK (state IN ('named', 'confirmed', 'declined')),
  created_at INTEGER NOT NULL
);
-- The same reference twice (a form posted again) is one.
CREATE UNIQUE INDEX item_funding_once ON item_funding (content_id, funder_name, coalesce(funder_id, ''), award_number);
CREATE INDEX item_funding_member ON item_funding (funder_member) WHERE funder_member IS NOT NULL;
CREATE INDEX users_organisation_ror ON users (organisation_ror) WHERE organisation_ror IS NOT NULL;
