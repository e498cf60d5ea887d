-- Comments on a passage (issue 51, docs/decisions/0051-passage-comments.md). A comment may point at
-- a quote on a page of a document or at a moment of a video: `anchor` holds it as JSON
-- ({"page","exact","prefix","suffix"} or {"start","end"} in seconds), made by the server from the
-- page's own text. `anchor_version` is the item's version the quote was found in; a newer version's
-- text is searched for it once (`anchor_checked`), and the quote moves on when it is still there.
-- A private comment (and every reply in its thread) is seen by the item's owner and its authors only.
ALTER TABLE comments ADD COLUMN anchor TEXT;
ALTER TABLE comments ADD COLUMN anchor_version INTEGER;
ALTER TABLE comments ADD COLUMN anchor_checked INTEGER;
ALTER TABLE comments ADD COLUMN private INTEGER NOT NULL DEFAULT 0;
CREATE INDEX comments_anchored ON comments (content_id, anchor_checked) WHERE anchor IS NOT NULL;
