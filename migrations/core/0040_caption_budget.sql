-- Each member's caption budget (issue 45, decision 0043): a caption set's text as stored, in bytes,
-- so a write can add up the member's sets in the statement that stores one.
ALTER TABLE captions ADD COLUMN text_bytes INTEGER NOT NULL DEFAULT 0;
UPDATE captions SET text_bytes = (SELECT coalesce(sum(length(CAST(body AS BLOB))), 0) FROM caption_cues WHERE caption_id = captions.id);
