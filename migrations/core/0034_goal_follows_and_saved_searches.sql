-- Following goals and saving searches (issue 33, docs/decisions/0040-calm-notifications.md): a new
-- public item notifies its uploader's followers, the members following its goal, and the members
-- whose saved search it matches, once each, through a background job per item.

CREATE TABLE goal_follows (
  user_id INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  sdg INTEGER NOT NULL CHECK (sdg BETWEEN 1 AND 17),
  created_at INTEGER NOT NULL,
  PRIMARY KEY (user_id, sdg)
) WITHOUT ROWID;
CREATE INDEX goal_follows_goal ON goal_follows (sdg, user_id);

-- A search's words (as the search reads them, JSON) and its filters; the same search twice is one.
CREATE TABLE saved_searches (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  user_id INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  q TEXT NOT NULL,
  terms TEXT NOT NULL,
  kind TEXT CHECK (kind IN ('document', 'video')),
  sdg INTEGER CHECK (sdg BETWEEN 1 AND 17),
  created_at INTEGER NOT NULL
);
CREATE UNIQUE INDEX saved_searches_once ON saved_searches (user_id, q, coalesce(kind, ''), coalesce(sdg, 0));
