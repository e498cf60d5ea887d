-- OAI-PMH's deleted records (issue 49, docs/decisions/0049-open-records.md): a record that stops being
-- open, whatever closed it (its owner, a moderator, privacy, deletion), is kept in closed_records
-- with when and, for harvesters selecting by set, its goal and kind; opened again, it leaves it.
-- Triggers, so that no way of changing an item can forget it.
ALTER TABLE closed_records ADD COLUMN sdg INTEGER;
ALTER TABLE closed_records ADD COLUMN kind TEXT;

CREATE TRIGGER open_record_closed AFTER UPDATE OF open_record, publicize, hidden_at ON content
  WHEN OLD.open_record = 1 AND OLD.publicize = 1 AND OLD.hidden_at IS NULL
   AND NOT (NEW.open_record = 1 AND NEW.publicize = 1 AND NEW.hidden_at IS NULL)
BEGIN
  INSERT OR REPLACE INTO closed_records (content_id, closed_at, sdg, kind)
    VALUES (NEW.id, CAST(unixepoch('subsec') * 1000 AS INTEGER), NEW.sdg, NEW.kind);
END;

-- Open again: its record changed since a harvester last saw it deleted.
CREATE TRIGGER open_record_reopened AFTER UPDATE OF open_record, publicize, hidden_at ON content
  WHEN NEW.open_record = 1 AND NEW.publicize = 1 AND NEW.hidden_at IS NULL
   AND NOT (OLD.open_record = 1 AND OLD.publicize = 1 AND OLD.hidden_at IS NULL)
BEGIN
  DELETE FROM closed_records WHERE content_id = NEW.id;
  UPDATE content SET updated_at = max(updated_at, CAST(unixepoch('subsec') * 1000 AS INTEGER)) WHERE id = NEW.id;
END;

CREATE TRIGGER open_record_deleted AFTER DELETE ON content
  WHEN OLD.open_record = 1 AND OLD.publicize = 1 AND OLD.hidden_at IS NULL
BEGIN
  INSERT OR REPLACE INTO closed_records (content_id, closed_at, sdg, kind)
    VALUES (OLD.id, CAST(unixepoch('subsec') * 1000 AS INTEGER), OLD.sdg, OLD.kind);
END;
