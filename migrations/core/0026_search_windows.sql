-- A search of short words only reads the newest items of a kind, newest first (docs/decisions/0026).
CREATE INDEX content_kind_recent ON content (kind, created_at);
