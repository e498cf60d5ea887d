-- Scheduling twice by accident (a double click, a retried post) makes one meeting: the form carries
-- a key made when it was rendered, unique per host. `change_key` marks the edit that won a race, so
-- the lists written with it belong to that edit alone.
ALTER TABLE meetings ADD COLUMN client_key TEXT;
CREATE UNIQUE INDEX meetings_client_key ON meetings (host_id, client_key);
ALTER TABLE meetings ADD COLUMN change_key TEXT;
