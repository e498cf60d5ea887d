-- The notification centre (issue 14): what happened while a member was away. `event_key` names the
-- event (a like by this member on this item, a meeting's change number...), so one event notifies
-- once however often or concurrently it is recorded.
CREATE TABLE notifications (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  user_id INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  kind TEXT NOT NULL CHECK (kind IN ('meeting', 'follower', 'like', 'comment', 'verification')),
  event TEXT NOT NULL,
  event_key TEXT NOT NULL,
  subject_id INTEGER,
  actor_id INTEGER REFERENCES users (id) ON DELETE SET NULL,
  created_at INTEGER NOT NULL,
  read_at INTEGER,
  UNIQUE (user_id, event_key)
);
CREATE INDEX notifications_list ON notifications (user_id, id DESC);
CREATE INDEX notifications_unread ON notifications (user_id) WHERE read_at IS NULL;

-- Kinds a member turned off in settings (none by default).
CREATE TABLE notification_mutes (
  user_id INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  kind TEXT NOT NULL,
  PRIMARY KEY (user_id, kind)
);
