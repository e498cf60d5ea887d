-- Conversations between two members. D1 holds every message (the conversation's Durable Object
-- orders, stores and relays them), so history, unread counts and the badge are plain queries.
CREATE TABLE conversations (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  -- The pair, smaller id first, so one pair has one conversation.
  member_low INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  member_high INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  created_at INTEGER NOT NULL,
  last_message_id INTEGER,
  CHECK (member_low < member_high),
  UNIQUE (member_low, member_high)
);
CREATE INDEX conversations_high ON conversations (member_high);

-- Each member's read position: everything after last_read_id from the other member is unread.
CREATE TABLE conversation_members (
  conversation_id INTEGER NOT NULL REFERENCES conversations (id) ON DELETE CASCADE,
  user_id INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  last_read_id INTEGER NOT NULL DEFAULT 0,
  PRIMARY KEY (conversation_id, user_id)
);
CREATE INDEX conversation_members_user ON conversation_members (user_id);

-- client_id is chosen by the sender's page (or the form); a repeated submission stores once.
CREATE TABLE messages (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  conversation_id INTEGER NOT NULL REFERENCES conversations (id) ON DELETE CASCADE,
  sender_id INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  client_id TEXT NOT NULL,
  body TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  UNIQUE (conversation_id, sender_id, client_id)
);
CREATE INDEX messages_conversation ON messages (conversation_id, id);
