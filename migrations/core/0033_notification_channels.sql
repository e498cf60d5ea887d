-- Calm notifications (issue 33, docs/decisions/0040-calm-notifications.md): each kind reaches a member
-- through the channel they chose (in the app only, mail at once, the daily or weekly digest, or off),
-- and more kinds exist: messages, replies, mentions, uploads and goals followed, saved searches and
-- moderation notices.

-- The list of kinds grows: the table is rebuilt with its check (SQLite cannot change a check in place).
CREATE TABLE notifications_next (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  user_id INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  kind TEXT NOT NULL CHECK (kind IN ('message', 'comment', 'reply', 'mention', 'follower', 'like', 'followed_upload', 'goal_item',
    'saved_search', 'meeting', 'verification', 'moderation')),
  event TEXT NOT NULL,
  event_key TEXT NOT NULL,
  subject_id INTEGER,
  actor_id INTEGER REFERENCES users (id) ON DELETE SET NULL,
  created_at INTEGER NOT NULL,
  read_at INTEGER,
  UNIQUE (user_id, event_key)
);
INSERT INTO notifications_next (id, user_id, kind, event, event_key, subject_id, actor_id, created_at, read_at)
  SELECT id, user_id, kind, event, event_key, subject_id, actor_id, created_at, read_at FROM notifications;
DROP TABLE notifications;
ALTER TABLE notifications_next RENAME TO notifications;
CREATE INDEX notifications_list ON notifications (user_id, id DESC);
CREATE INDEX notifications_unread ON notifications (user_id) WHERE read_at IS NULL;
-- A digest reads what arrived since the last one.
CREATE INDEX notifications_since ON notifications (user_id, created_at);

-- A member's channel per kind, where they changed it (the calm defaults live in app/lib/notifications.ts).
CREATE TABLE notification_channels (
  user_id INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  kind TEXT NOT NULL,
  channel TEXT NOT NULL CHECK (channel IN ('app', 'mail', 'daily', 'weekly', 'off')),
  PRIMARY KEY (user_id, kind)
) WITHOUT ROWID;
-- A kind turned off before stays off.
INSERT INTO notification_channels (user_id, kind, channel) SELECT user_id, kind, 'off' FROM notification_mutes;
DROP TABLE notification_mutes;

-- Each digest a member was sent, one row per period ("daily:2026-11-26", "weekly:2026-W48"): claimed
-- in one statement, so two cron runs or a redelivered job build it once; `sent_at` is set once the
-- mail is handed over (a retry sends the same mail again under the same idempotency key).
CREATE TABLE digests (
  user_id INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  period TEXT NOT NULL,
  since INTEGER NOT NULL,
  claimed_at INTEGER NOT NULL,
  sent_at INTEGER,
  notifications INTEGER,
  PRIMARY KEY (user_id, period)
);
CREATE INDEX digests_claimed ON digests (claimed_at);

-- Mail is a text and an HTML part: the local outbox keeps both.
ALTER TABLE mail_outbox ADD COLUMN html TEXT;
