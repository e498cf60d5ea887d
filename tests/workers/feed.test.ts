import { beforeAll, describe, expect, it } from "vitest";
import { feedQuerySchema, listFeed } from "~/.server/content/feed";
import { newItem, newMember } from "./helpers";

async function seed() {
  const owner = await newMember("Feeder");
  const rows: Array<["document" | "video", number, 0 | 1, number, number, number]> = [
    // kind, sdg, publicize, views, likes, created_at
    ["document", 6, 1, 10, 1, 1000],
    ["video", 6, 1, 5, 9, 2000],
    ["document", 13, 1, 50, 0, 3000],
    ["video", 13, 0, 999, 999, 4000], // private: must never show
  ];
  for (const [kind, sdg, publicize, views, likes, created_at] of rows) {
    await newItem(owner, { kind, sdg, title: `${kind}-${sdg}-${created_at}`, publicize, views, likes, created_at });
  }
}

const titles = async (query: Record<string, string>, pageSize?: number) =>
  (await listFeed(feedQuerySchema.parse(query), pageSize)).items.map((i) => i.title);

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
    const first = await listFeed(feedQuerySchema.parse({ page: "1" }), 2);
    const second = await listFeed(feedQuerySchema.parse({ page: "2" }), 2);
    expect([first.has_more, second.has_more]).toEqual([true, false]);
    expect(second.items.map((i) => i.title)).toEqual(["document-6-1000"]);
  });

  it("treats odd query values as the defaults instead of failing", () => {
    expect(feedQuerySchema.parse({ sdg: "99", kind: "exe", sort: "'; DROP TABLE", page: "-3" })).toEqual({ sort: "newest", page: 1 });
  });
});
