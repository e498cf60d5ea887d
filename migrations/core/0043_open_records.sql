-- Open records (issue 49, docs/decisions/0049-open-records.md): the owner's choice to let anyone
-- read an item's record (served only while the operator's OPEN_RECORDS is on), and the records
-- that were open when their item was deleted, which answer 410 Gone to harvesters from then on.
ALTER TABLE content ADD COLUMN open_record INTEGER NOT NULL DEFAULT 0 CHECK (open_record IN (0, 1));

CREATE TABLE closed_records (
  content_id INTEGER PRIMARY KEY,
  closed_at INTEGER NOT NULL
);
