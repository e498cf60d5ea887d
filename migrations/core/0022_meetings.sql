-- Meetings (spec sections 1, 3 and 5) through an external conferencing provider. Times are UTC
-- milliseconds; `time_zone` is the IANA zone the host scheduled in (invitations carry it). `sequence`
-- counts changes, as iCalendar's SEQUENCE does: every update and the cancellation raise it.
CREATE TABLE meetings (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  uid TEXT NOT NULL UNIQUE,
  host_id INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  title TEXT NOT NULL,
  agenda TEXT NOT NULL,
  starts_at INTEGER NOT NULL,
  duration_minutes INTEGER NOT NULL CHECK (duration_minutes > 0),
  time_zone TEXT NOT NULL,
  provider TEXT NOT NULL,
  provider_id TEXT NOT NULL,
  join_url TEXT NOT NULL,
  start_url TEXT,
  sequence INTEGER NOT NULL DEFAULT 0,
  cancelled_at INTEGER,
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL
);
CREATE INDEX meetings_host ON meetings (host_id, starts_at);

CREATE TABLE meeting_attendees (
  meeting_id INTEGER NOT NULL REFERENCES meetings (id) ON DELETE CASCADE,
  email TEXT NOT NULL,
  PRIMARY KEY (meeting_id, email)
);

CREATE TABLE meeting_participants (
  meeting_id INTEGER NOT NULL REFERENCES meetings (id) ON DELETE CASCADE,
  user_id INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  PRIMARY KEY (meeting_id, user_id)
);
CREATE INDEX meeting_participants_user ON meeting_participants (user_id);

-- The zone a member's times are shown in (the last one they scheduled in; UTC until then).
ALTER TABLE users ADD COLUMN time_zone TEXT NOT NULL DEFAULT 'UTC';

-- Invitations carry an iCalendar file; the local outbox keeps attachments as JSON [{filename, contentType, content}].
ALTER TABLE mail_outbox ADD COLUMN attachments TEXT;
