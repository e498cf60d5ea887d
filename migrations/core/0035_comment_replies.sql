-- Replies and mentions in comments (issue 33, docs/decisions/0040-calm-notifications.md). A reply
-- belongs to its thread's first comment (one level shown); a comment with replies that its author
-- deletes stays as "deleted comment" (its words gone) so the replies keep their place.
ALTER TABLE comments ADD COLUMN parent_id INTEGER;
ALTER TABLE comments ADD COLUMN deleted_at INTEGER;
CREATE INDEX comments_thread ON comments (parent_id) WHERE parent_id IS NOT NULL;
-- "@Aiko Tanaka" is read by looking names up, case aside.
CREATE INDEX users_nick_name ON users (nick_name COLLATE NOCASE);
