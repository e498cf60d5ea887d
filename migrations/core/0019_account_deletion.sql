-- A deleted account keeps an anonymous row (so other members' conversations stay readable, their
-- author shown as a deleted member); everything else of theirs is removed (docs/decisions/0018).
ALTER TABLE users ADD COLUMN deleted_at INTEGER;
