import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { searchContent, searchQuerySchema } from "~/.server/search/search";
import { SEARCH_CANDIDATES, SEARCH_SHORT_WORD_WINDOW } from "~/lib/limits";
import { newItem, newMember, putText } from "./helpers";

// Search stays bounded at any catalogue size (docs/decisions/0026): these fill a catalogue past
// each window and check what a member then finds.

let owner = 0;
const search = async (q: string, tab: "documents" | "videos", page = 1) =>
  (await searchContent(searchQuerySchema.parse({ q, tab, page }), owner, Date.now())).hits;
const plain = (text: string) => text.replace(/[\u0001\u0002]/g, "");

/** `count` items of a kind by SQL, ids (and times) rising, their text made by `text(k)`. */
async function fill(kind: "document" | "video", count: number, title: string, content: string, from = 1000) {
  await env.DB.prepare(
    `WITH RECURSIVE n(k) AS (SELECT 1 UNION ALL SELECT k + 1 FROM n WHERE k < ?)
     INSERT INTO content (owner_id, kind, sdg, title, summary, content, keywords, publicize, file_key, file_size, file_type, thumbnail_key, thumbnail_type, views, likes, created_at, updated_at)
     SELECT ?, ?, 1, ? || ' ' || k, 'summary', ?, 'keywords', 1, ? || '-' || k, 1, 'application/pdf', 't', 'image/png', 0, 0, ? + k, ? + k FROM n`,
  )
    .bind(count, owner, kind, title, content, `${kind}-${title}`, from, from)
    .run();
}

describe("search over a catalogue larger than its windows", () => {
  beforeAll(async () => {
    owner = await newMember("Bounded");
  });

  it("ranks the newest matches of a common word by where the word is, the title first", async () => {
    // The oldest match has the word in its title, then more newer matches than the window holds.
    await newItem(owner, { title: "Commonword in the title, long ago", content: "old", created_at: 10 });
    await fill("document", SEARCH_CANDIDATES + 5, "Item", "text with commonword inside", 100);
    await newItem(owner, { title: "Commonword in the title, recent", content: "new", created_at: 10_000_000 });

    const first = await search("commonword", "documents");
    expect(first).toHaveLength(20);
    expect(plain(first[0]?.title ?? "")).toBe("Commonword in the title, recent");
    expect(first[0]?.title).toContain("\u0001Commonword\u0002");
    expect(first[1]?.snippet).toContain("\u0001commonword\u0002");
    // The rest are newest first among equals.
    const ids = first.slice(1).map((hit) => hit.id);
    expect(ids).toEqual([...ids].sort((a, b) => b - a));
    // Past the newest SEARCH_CANDIDATES matches, the old title match is not ranked.
    const everything = (await Promise.all([1, 2, 3].map((page) => search("commonword", "documents", page)))).flat();
    expect(everything.some((hit) => plain(hit.title).endsWith("long ago"))).toBe(false);
  });

  it("reaches every page a query allows: deep pages widen the window", async () => {
    // SEARCH_CANDIDATES + 7 matches: the last page holds the 7 past the first window, newest first, the old title match last.
    const last = Math.floor(SEARCH_CANDIDATES / 20) + 1;
    const deep = await search("commonword", "documents", last);
    expect(deep).toHaveLength(7);
    expect(plain(deep.at(-1)?.title ?? "")).toBe("Commonword in the title, long ago");
    // The page before it is cut from the same order as it was before the window widened.
    const before = await search("commonword", "documents", last - 1);
    expect(before.map((hit) => hit.id)).toEqual([...before.map((hit) => hit.id)].sort((a, b) => b - a));
  });

  it("reads only the newest items of the kind for a query of short words", async () => {
    await newItem(owner, { kind: "video", title: "窗口 old", created_at: 5 });
    await fill("video", SEARCH_SHORT_WORD_WINDOW, "Video", "nothing here", 100);
    await newItem(owner, { kind: "video", title: "窗口 new", created_at: 10_000_000 });
    const hits = await search("窗口", "videos");
    expect(hits.map((hit) => plain(hit.title))).toEqual(["窗口 new"]);
    expect(hits[0]?.title).toContain("\u0001窗口\u0002");
  });
});

describe("a word too long for one LIKE pattern", () => {
  it("finds a document by a Chinese or Japanese word of more than 16 characters in its text, and only one that has it whole", async () => {
    const member = await newMember("Long words");
    const phrase = "农村饮用水安全评估与社区参与式管理研究报告"; // 21 characters: 63 bytes, past D1's 50-byte LIKE pattern
    const withText = async (body: string) => {
      const id = await newItem(member, { title: "Report", content: "c", created_at: Date.now() });
      await putText(id, body);
      return id;
    };
    const whole = await withText(`本文：${phrase}。`);
    // Its first and last pieces, but not the word whole.
    await withText(`${[...phrase].slice(0, 16).join("")}……${[...phrase].slice(-16).join("")}`);
    const { hits: found } = await searchContent(searchQuerySchema.parse({ q: phrase, tab: "documents" }), member, Date.now());
    expect(found.map((hit) => hit.id)).toEqual([whole]);
    const japanese = "地域住民による水道施設の維持管理に関する参加型研究";
    expect((await searchContent(searchQuerySchema.parse({ q: japanese, tab: "documents" }), member, Date.now())).hits).toEqual([]);
  });
});
