import { env } from "~/.server/bindings";

/**
 * Takes a member off an item's co-authors: every entry with the iD they linked by signing in to
 * ORCID goes, the others keep their order. One statement, so an owner's edit at the same moment
 * either comes before it or after it, never half. Nothing happens for an item that does not list them.
 */
export async function removeCoAuthor(userId: number, contentId: number) {
  await env.DB.prepare(
    `UPDATE content SET authors = (
       SELECT json_group_array(json(value)) FROM (SELECT value FROM json_each(content.authors)
         WHERE json_extract(value, '$.orcid') IS NOT (SELECT orcid FROM users WHERE id = ?1) ORDER BY key)
     )
     WHERE id = ?2 AND EXISTS (SELECT 1 FROM content_author_ids a JOIN users u ON u.orcid = a.orcid WHERE u.id = ?1 AND a.content_id = ?2)`,
  )
    .bind(userId, contentId)
    .run();
}
