-- Research-grade items (issue 17): an optional DOI (bare, lower case) and the co-authors beyond the
-- uploader, as a JSON array of {"name", "orcid"} in the order given; a member's own ORCID iD.
ALTER TABLE content ADD COLUMN doi TEXT;
ALTER TABLE content ADD COLUMN authors TEXT NOT NULL DEFAULT '[]';
ALTER TABLE profiles ADD COLUMN orcid TEXT;
