-- Search results mark matches with the control characters U+0001 and U+0002 (app/lib/highlight.ts).
-- Member text may no longer contain them (app/lib/schemas/text.ts); this removes any stored before,
-- so no title or name can fake a highlight. The search triggers reindex the rows it changes.
UPDATE content SET title = replace(replace(title, char(1), ''), char(2), ''),
  summary = replace(replace(summary, char(1), ''), char(2), ''),
  content = replace(replace(content, char(1), ''), char(2), ''),
  keywords = replace(replace(keywords, char(1), ''), char(2), '')
WHERE title GLOB '*[' || char(1) || char(2) || ']*' OR summary GLOB '*[' || char(1) || char(2) || ']*'
  OR content GLOB '*[' || char(1) || char(2) || ']*' OR keywords GLOB '*[' || char(1) || char(2) || ']*';
UPDATE users SET nick_name = replace(replace(nick_name, char(1), ''), char(2), ''),
  organisation = replace(replace(organisation, char(1), ''), char(2), '')
WHERE nick_name GLOB '*[' || char(1) || char(2) || ']*' OR organisation GLOB '*[' || char(1) || char(2) || ']*';
