-- Rebuilds both search indexes from their source tables (after a restore, or if they drift):
--   npx wrangler d1 execute DB --remote --env production --file scripts/rebuild-search.sql
-- The same statements as migrations/0005_search.sql's initial fill.
DELETE FROM content_fts;
INSERT INTO content_fts (rowid, title, summary, content, keywords) SELECT id, title, summary, content, keywords FROM content;
DELETE FROM member_fts;
INSERT INTO member_fts (rowid, nick_name, organisation) SELECT id, nick_name, coalesce(organisation, '') FROM users;
