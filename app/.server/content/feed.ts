import { z } from "zod";
import { env } from "~/.server/bindings";
import type { Language } from "~/lib/i18n";
import type { FeedItem } from "~/lib/shapes";
import { cardColumns } from "./item-texts";

export const FEED_PAGE_SIZE = 12;

/** The feed's query string: every value checked, anything odd falls back to the default. */
export const feedQuerySchema = z.object({
  sdg: z.coerce.number().int().min(1).max(17).optional().catch(undefined),
  kind: z.enum(["document", "video"]).optional().catch(undefined),
  sort: z.enum(["newest", "views", "likes"]).default("newest").catch("newest"),
  page: z.coerce.number().int().min(1).max(1000).default(1).catch(1),
});
export type FeedQuery = z.infer<typeof feedQuerySchema>;

const ORDER: Record<FeedQuery["sort"], string> = {
  newest: "c.created_at DESC, c.id DESC",
  views: "c.views DESC, c.created_at DESC, c.id DESC",
  likes: "c.likes DESC, c.created_at DESC, c.id DESC",
};

/**
 * Publicized documents and videos only (private items never reach anyone else's feed). A page's
 * reader sees each title and abstract in their language where its owner gave it (decision 0050);
 * without a reader (the API, whose answers list every language), the originals.
 */
export async function listFeed(query: FeedQuery, pageSize = FEED_PAGE_SIZE, reader: Language | null = null) {
  const where = ["c.publicize = 1"];
  const binds: (string | number)[] = [];
  if (query.sdg) {
    where.push("c.sdg = ?");
    binds.push(query.sdg);
  }
  if (query.kind) {
    where.push("c.kind = ?");
    binds.push(query.kind);
  }
  const { results } = await env.DB.prepare(
    `SELECT ${cardColumns(reader)}, u.nick_name AS owner_name
       FROM content c JOIN users u ON u.id = c.owner_id WHERE ${where.join(" AND ")}
       ORDER BY ${ORDER[query.sort]} LIMIT ? OFFSET ?`,
  )
    .bind(...binds, pageSize + 1, (query.page - 1) * pageSize)
    .all<FeedItem>();
  return { items: results.slice(0, pageSize), has_more: results.length > pageSize };
}
