-- A comment form carries a key made when the page was rendered: a double submit, or a retry after a
-- lost answer, stores the comment once (NULL keys, from older clients, never collide).
ALTER TABLE comments ADD COLUMN client_key TEXT;
CREATE UNIQUE INDEX comments_client_key ON comments (user_id, client_key);
