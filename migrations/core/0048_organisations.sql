-- Organisations by the Research Organization Registry (issue 52, docs/decisions/0052): the ROR id a
-- member picked for their organisation (a facilitator's) or affiliation (an individual's), beside
-- the name as they typed it (`organisation`), and the registry's name for it when picked.
ALTER TABLE users ADD COLUMN organisation_ror TEXT;
ALTER TABLE users ADD COLUMN organisation_ror_name TEXT;
