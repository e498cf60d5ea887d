-- Every author and only authors (issue 49, docs/decisions/0049-open-records.md): a member may upload
-- a work they are not an author of (a lab's secretary, a supervisor for a student), naming its
-- authors; citations, a record's head and its harvested metadata then leave the uploader out.
ALTER TABLE content ADD COLUMN on_behalf INTEGER NOT NULL DEFAULT 0 CHECK (on_behalf IN (0, 1));
