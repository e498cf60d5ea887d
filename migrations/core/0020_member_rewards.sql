-- Milestones a member reached, once each (app/lib/rewards.ts has the rules).
CREATE TABLE member_rewards (
  user_id INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  reward TEXT NOT NULL,
  awarded_at INTEGER NOT NULL,
  PRIMARY KEY (user_id, reward)
);
