import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { feedQuerySchema, listFeed } from "~/server/content/feed";
import { uniqueEmail } from "./helpers";

async function seed() {
  const owner = await env.DB.prepare(
    "INSERT INTO users (email, password_hash, account_type, kind, nick_name, created_at) VALUES (?, 'x', 1, 'individual', 'Feeder', 0) RETURNING id",
  )
    .bind(uniqueEmail())
    .first<{ id: number }>();
  const rows: Array<[string, number, number, number, number, number]> = [
    // kind, sdg, publicize, views, likes, created_at
    ["document", 6, 1, 10, 1, 1000],
    ["video", 6, 1, 5, 9, 2000],
    ["document", 13, 1, 50, 0, 3000],
    ["video", 13, 0, 999, 999, 4000], // private: must never show
  ];
  for (const [kind, sdg, publicize, views, likes, created] of rows) {
    await env.DB.prepare(
      `INSERT INTO content (owner_id, kind, sdg, title, summary, content, keywords, publicize, file_key, file_size, file_type, thumbnail_key, thumbnail_type, views, likes, created_at, updated_at)
       VALUES (?, ?, ?, ?, 's', 'c', 'k', ?, 'f', 1, 'application/pdf', 't', 'image/png', ?, ?, ?, ?)`,
    )
      .bind(owner?.id, kind, sdg, `${kind}-${sdg}-${created}`, publicize, views, likes, created, created)
      .run();
  }
}

const titles = async (query: Record<string, string>, pageSize?: number) =>
  (await listFeed(env.DB, feedQuerySchema.parse(query), pageSize)).items.map((i) => i.title);

describe("the discovery feed", () => {
  beforeAll(seed);

  it("lists only publicized items, newest first, and sorts by views or likes", async () => {
    expect(await titles({})).toEqual(["document-13-3000", "video-6-2000", "document-6-1000"]);
    expect(await titles({ sort: "views" })).toEqual(["document-13-3000", "document-6-1000", "video-6-2000"]);
    expect(await titles({ sort: "likes" })).toEqual(["video-6-2000", "document-6-1000", "document-13-3000"]);
  });

  it("filters by goal and kind", async () => {
    expect(await titles({ sdg: "6" })).toEqual(["video-6-2000", "document-6-1000"]);
    expect(await titles({ sdg: "13", kind: "video" })).toEqual([]);
    expect(await titles({ kind: "document" })).toEqual(["document-13-3000", "document-6-1000"]);
  });

  it("pages, and says when there is more", async () => {
    const first = await listFeed(env.DB, feedQuerySchema.parse({ page: "1" }), 2);
    const second = await listFeed(env.DB, feedQuerySchema.parse({ page: "2" }), 2);
    expect([first.hasMore, second.hasMore]).toEqual([true, false]);
    expect(second.items.map((i) => i.title)).toEqual(["document-6-1000"]);
  });

  it("treats odd query values as the defaults instead of failing", () => {
    expect(feedQuerySchema.parse({ sdg: "99", kind: "exe", sort: "'; DROP TABLE", page: "-3" })).toEqual({ sort: "newest", page: 1 });
  });
});
