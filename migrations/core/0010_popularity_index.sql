-- The recommended list takes the most popular items overall and per goal without sorting the whole
-- catalogue: popularity (a like weighs three views) as an indexed expression, newest first on ties.
CREATE INDEX content_popularity ON content (publicize, (likes * 3 + views) DESC, created_at DESC, id DESC);
CREATE INDEX content_goal_popularity ON content (publicize, sdg, (likes * 3 + views) DESC, created_at DESC, id DESC);
