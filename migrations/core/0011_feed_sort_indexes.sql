-- The discovery feed's "most viewed" and "most liked" orders walk an index and stop at the page
-- instead of sorting every publicized item.
CREATE INDEX content_public_views ON content (publicize, views DESC, created_at DESC, id DESC);
CREATE INDEX content_public_likes ON content (publicize, likes DESC, created_at DESC, id DESC);
