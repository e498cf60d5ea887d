-- The upload form carries a key made when the page was rendered: the same form posted twice (a
-- double click, a retried post without JavaScript) makes one item.
ALTER TABLE content ADD COLUMN client_key TEXT;
CREATE UNIQUE INDEX content_client_key ON content (owner_id, client_key);
