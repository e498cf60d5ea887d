-- Rebuilds the core's search indexes from their source tables (after a restore, or if they drift):
--   npx wrangler d1 execute DB --remote --env production --file scripts/rebuild-search.sql
-- The same statements as the migrations' initial fills (0046 for content, 0017 for members). Each
-- text shard's indexes: scripts/rebuild-text-search.sql, once per shard (TEXT_1, TEXT_2, ...).
DELETE FROM content_fts;
INSERT INTO content_fts (rowid, title, summary, content, keywords, authors, texts)
  SELECT id, title, summary, content, keywords,
    coalesce((SELECT group_concat(json_extract(a.value, '$.name'), ', ') FROM json_each(content.authors) a), ''), texts
  FROM content;
DELETE FROM member_fts;
INSERT INTO member_fts (rowid, nick_name, organisation, profile)
  SELECT u.id, u.nick_name, coalesce(u.organisation, ''), coalesce(p.search_text, '')
  FROM users u LEFT JOIN profiles p ON p.user_id = u.id AND p.public = 1 WHERE u.deleted_at IS NULL;
