import { env } from "~/.server/bindings";
import { type Read, readOne } from "~/.server/reads";
import type { Language } from "~/lib/i18n";
import type { FeedItem } from "~/lib/shapes";
import { FEED_PAGE_SIZE } from "./feed";
import { cardColumns } from "./item-texts";

const POPULARITY = "c.likes * 3 + c.views";
const ORDER = `${POPULARITY} DESC, c.created_at DESC, c.id DESC`;

/**
 * The member's recommended list: publicized items by others, those from members they follow and in
 * goals they chose as interests first (both counts more than either), then by popularity (a like
 * weighs as much as three views), then newest. See docs/decisions/0009-member-pages-and-recommendations.md.
 *
 * Only candidates that can reach the requested page are ranked: every item by a followed member,
 * and the top (offset + page) items by popularity within the member's goals and overall, each read
 * from an index. Any item outside those sets has at least that many items ranked above it.
 * (CROSS JOIN fixes SQLite's join order: the member's few follows and goals first, then their items.)
 */
export function recommendedRead(
  userId: number,
  page = 1,
  pageSize = FEED_PAGE_SIZE,
  reader: Language | null = null,
): Read<{ items: FeedItem[]; has_more: boolean }> {
  const reach = page * pageSize + 1;
  return {
    statements: [
      env.DB.prepare(
        `WITH candidates AS (
         SELECT c.id FROM follows f CROSS JOIN content c ON c.owner_id = f.followee_id WHERE f.follower_id = ?1 AND c.publicize = 1
         UNION
         SELECT id FROM (
           SELECT c.id FROM interests i CROSS JOIN content c INDEXED BY content_goal_popularity ON c.publicize = 1 AND c.sdg = i.sdg
           WHERE i.user_id = ?1 AND c.owner_id <> ?1 ORDER BY ${ORDER} LIMIT ?2)
         UNION
         SELECT id FROM (SELECT c.id FROM content c INDEXED BY content_popularity WHERE c.publicize = 1 AND c.owner_id <> ?1 ORDER BY ${ORDER} LIMIT ?2)
       )
       SELECT ${cardColumns(reader)}, u.nick_name AS owner_name
       FROM candidates JOIN content c ON c.id = candidates.id JOIN users u ON u.id = c.owner_id
       WHERE c.owner_id <> ?1
       ORDER BY
         EXISTS (SELECT 1 FROM follows f WHERE f.follower_id = ?1 AND f.followee_id = c.owner_id)
           + EXISTS (SELECT 1 FROM interests i WHERE i.user_id = ?1 AND i.sdg = c.sdg) DESC,
         ${ORDER}
       LIMIT ?3 OFFSET ?4`,
      ).bind(userId, reach, pageSize + 1, (page - 1) * pageSize),
    ],
    decode: ([found]) => {
      const results = (found?.results ?? []) as FeedItem[];
      return { items: results.slice(0, pageSize), has_more: results.length > pageSize };
    },
  };
}

export const recommended = (userId: number, page = 1, pageSize = FEED_PAGE_SIZE, reader: Language | null = null) =>
  readOne(recommendedRead(userId, page, pageSize, reader));
