-- Rebuilds a text shard's indexes from its tables (after a restore, or if they drift), per shard:
--   npx wrangler d1 execute TEXT_1 --remote --env production --file scripts/rebuild-text-search.sql
INSERT INTO document_fts (document_fts) VALUES ('rebuild');
INSERT INTO caption_fts (caption_fts) VALUES ('rebuild');
