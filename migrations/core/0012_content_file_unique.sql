-- One stored file is one item: a completed upload submitted twice (two tabs, a double click, a
-- retried request) makes one item, and deleting it never takes another item's file with it.
CREATE UNIQUE INDEX content_file_key ON content (file_key);
