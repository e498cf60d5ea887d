import { FEED_PAGE_SIZE, type FeedItem } from "./feed";

/**
 * The member's recommended list: publicized items by others, those from members they follow and in
 * goals they chose as interests first (both counts more than either), then by popularity (a like
 * weighs as much as three views), then newest. See docs/decisions/0009-member-pages-and-recommendations.md.
 */
export async function recommended(db: D1Database, userId: number, page = 1, pageSize = FEED_PAGE_SIZE) {
  const { results } = await db
    .prepare(
      `SELECT c.id, c.kind, c.sdg, c.title, c.summary, c.views, c.likes, c.created_at, c.owner_id, u.nick_name AS owner_name
       FROM content c JOIN users u ON u.id = c.owner_id
       WHERE c.publicize = 1 AND c.owner_id <> ?1
       ORDER BY
         EXISTS (SELECT 1 FROM follows f WHERE f.follower_id = ?1 AND f.followee_id = c.owner_id)
           + EXISTS (SELECT 1 FROM interests i WHERE i.user_id = ?1 AND i.sdg = c.sdg) DESC,
         c.likes * 3 + c.views DESC, c.created_at DESC, c.id DESC
       LIMIT ?2 OFFSET ?3`,
    )
    .bind(userId, pageSize + 1, (page - 1) * pageSize)
    .all<FeedItem>();
  return { items: results.slice(0, pageSize), hasMore: results.length > pageSize };
}
