-- "Most viewed" counts readers, not repeat views (docs/decisions/0039-statistics.md): the count on
-- cards (`content.views`, which the feeds sort and recommendations weigh) grows by an item-day's
-- distinct readers, so one member opening an item every 31 s all day is one. The statistics pages
-- still show every COUNTER view (`stat_days.n`). Same triggers as 0032, reading `readers` for views.
DROP TRIGGER stat_days_new;
DROP TRIGGER stat_days_more;
CREATE TRIGGER stat_days_new AFTER INSERT ON stat_days
BEGIN
  INSERT INTO stat_months (owner_id, content_id, month, kind, reader_type, n, readers)
    VALUES (NEW.owner_id, NEW.content_id, substr(NEW.day, 1, 7), NEW.kind, NEW.reader_type, NEW.n, NEW.readers)
    ON CONFLICT DO UPDATE SET n = n + excluded.n, readers = readers + excluded.readers;
  INSERT INTO stat_owner_days (owner_id, day, kind, n) VALUES (NEW.owner_id, NEW.day, NEW.kind, NEW.n)
    ON CONFLICT DO UPDATE SET n = n + excluded.n;
  UPDATE content SET views = views + NEW.readers WHERE id = NEW.content_id AND NEW.kind = 'view';
END;
CREATE TRIGGER stat_days_more AFTER UPDATE OF n, readers ON stat_days
BEGIN
  INSERT INTO stat_months (owner_id, content_id, month, kind, reader_type, n, readers)
    VALUES (NEW.owner_id, NEW.content_id, substr(NEW.day, 1, 7), NEW.kind, NEW.reader_type, NEW.n - OLD.n, NEW.readers - OLD.readers)
    ON CONFLICT DO UPDATE SET n = n + excluded.n, readers = readers + excluded.readers;
  INSERT INTO stat_owner_days (owner_id, day, kind, n) VALUES (NEW.owner_id, NEW.day, NEW.kind, NEW.n - OLD.n)
    ON CONFLICT DO UPDATE SET n = n + excluded.n;
  UPDATE content SET views = views + NEW.readers - OLD.readers WHERE id = NEW.content_id AND NEW.kind = 'view';
END;

-- The repeats counted so far come off the cards (what else the count holds stays).
UPDATE content SET views = max(0, views - (SELECT sum(n - readers) FROM stat_days d WHERE d.content_id = content.id AND d.kind = 'view'))
  WHERE id IN (SELECT content_id FROM stat_days WHERE kind = 'view' AND n > readers);
