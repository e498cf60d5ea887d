-- Items in three languages (issue 50, docs/decisions/0050-item-languages.md): the language an item's
-- own title and abstract are written in (BCP 47; NULL for items from before, not guessed), and its
-- title and abstract in the interface's languages, each the author's translation or a machine's
-- suggestion. A new version keeps them (they belong to the item, like its captions).
ALTER TABLE content ADD COLUMN language TEXT;

-- A machine's text is 'pending' while its job runs (empty until then), 'suggested' until its owner
-- accepts it ('shown', still labelled a machine's) or drops it; the owner's own text is 'shown'.
CREATE TABLE item_texts (
  content_id INTEGER NOT NULL REFERENCES content(id) ON DELETE CASCADE,
  lang TEXT NOT NULL CHECK (lang IN ('en', 'ja', 'zh')),
  title TEXT NOT NULL,
  summary TEXT NOT NULL,
  source TEXT NOT NULL CHECK (source IN ('author', 'machine')),
  state TEXT NOT NULL DEFAULT 'shown' CHECK (state IN ('pending', 'suggested', 'shown')),
  updated_at INTEGER NOT NULL,
  PRIMARY KEY (content_id, lang)
);

-- Machine suggestions a member asked for on a day (UTC), against their daily budget.
CREATE TABLE text_suggestion_days (
  owner_id INTEGER NOT NULL,
  day TEXT NOT NULL,
  n INTEGER NOT NULL,
  PRIMARY KEY (owner_id, day)
);
