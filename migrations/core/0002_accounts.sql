-- Members. account_type 1 = Researcher, 2 = Investor or supporter; it never changes after sign-up.
CREATE TABLE users (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  email TEXT NOT NULL UNIQUE COLLATE NOCASE,
  password_hash TEXT NOT NULL,
  account_type INTEGER NOT NULL CHECK (account_type IN (1, 2)),
  kind TEXT NOT NULL CHECK (kind IN ('individual', 'facilitator')),
  nick_name TEXT NOT NULL,
  organisation TEXT,
  image TEXT,
  language TEXT NOT NULL DEFAULT 'en',
  membership TEXT NOT NULL DEFAULT 'free' CHECK (membership IN ('free', 'regular', 'premium')),
  created_at INTEGER NOT NULL
);

-- Sessions: only the SHA-256 of the token is stored.
CREATE TABLE sessions (
  token_hash TEXT PRIMARY KEY,
  user_id INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  created_at INTEGER NOT NULL,
  last_seen_at INTEGER NOT NULL,
  expires_at INTEGER NOT NULL
);
CREATE INDEX sessions_user ON sessions (user_id);

-- One live code per email and purpose; a new code replaces the old.
CREATE TABLE verification_codes (
  email TEXT NOT NULL COLLATE NOCASE,
  purpose TEXT NOT NULL CHECK (purpose IN ('register', 'reset')),
  code_hash TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  expires_at INTEGER NOT NULL,
  attempts INTEGER NOT NULL DEFAULT 0,
  PRIMARY KEY (email, purpose)
);

-- Failed logins per account and client address: slows guessing from one place without letting
-- anyone elsewhere lock the member out.
CREATE TABLE login_failures (
  email TEXT NOT NULL COLLATE NOCASE,
  client TEXT NOT NULL,
  failures INTEGER NOT NULL,
  last_failed_at INTEGER NOT NULL,
  PRIMARY KEY (email, client)
);

-- The local mail adapter's outbox (shown at /dev/mail when running locally).
CREATE TABLE mail_outbox (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  to_email TEXT NOT NULL,
  subject TEXT NOT NULL,
  body TEXT NOT NULL,
  created_at INTEGER NOT NULL
);
