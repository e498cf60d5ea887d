import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { textShard } from "~/.server/databases";
import {
  clearSearchHistory,
  rememberSearch,
  searchContent,
  searchHistory,
  searchMembers,
  searchQuerySchema,
} from "~/.server/search/search";
import { askShards } from "~/.server/search/shards";
import * as retrieval from "~/routes/retrieval";
import rebuildSql from "../../scripts/rebuild-search.sql?raw";
import { newItem, newMember, putText } from "./helpers";
import { callRoute, sessionFor } from "./route";

let owner = 0;
let other = 0;

const member = (nick: string, organisation: string | null = null) => newMember(nick, 1, organisation);
const item = (title: string, content: string, publicize: 0 | 1, by = owner) =>
  newItem(by, { sdg: 6, title, summary: "summary", content, keywords: "water", publicize });

const q = (text: string) => searchQuerySchema.parse({ q: text });
const titles = async (text: string, viewer = other) =>
  (await searchContent(q(text), viewer, Date.now())).hits.map((h) => h.title.replace(/[\u0001\u0002]/g, ""));

describe("full-text search", () => {
  beforeAll(async () => {
    owner = await member("Aiko Tanaka", "Kyoto Water Lab");
    other = await member("Someone Else");
    await item("Safe drinking water in small towns", "Household filters. 安全な飲み水を届ける研究。清洁饮水和卫生设施。", 1);
    await item("Private draft about water", "secret wells", 0);
  });

  it("finds English, Japanese and Chinese text, ranked, with matches marked", async () => {
    expect(await titles("filters")).toEqual(["Safe drinking water in small towns"]);
    expect(await titles("飲み水")).toEqual(["Safe drinking water in small towns"]);
    expect(await titles("清洁饮水")).toEqual(["Safe drinking water in small towns"]);
    // Two CJK characters are below the trigram: found by the LIKE fallback.
    expect(await titles("饮水")).toEqual(["Safe drinking water in small towns"]);
    const {
      hits: [hit],
    } = await searchContent(q("drinking"), other, Date.now());
    expect(hit?.title).toContain("\u0001drinking\u0002");
  });

  it("never shows another member's private item, but shows the owner their own", async () => {
    expect(await titles("secret wells")).toEqual([]);
    expect(await titles("secret wells", owner)).toEqual(["Private draft about water"]);
  });

  it.each([
    '"',
    '"unclosed',
    "water AND OR NOT",
    "NEAR(water filters",
    "wat*",
    "title:water",
    "^water",
    "-water",
    "(((",
    "'; DROP TABLE content; --",
    "%_\\",
    "\u0000\u0001",
    "water \u3000 饮",
  ])("takes hostile query %j without failing", async (text) => {
    await expect(searchContent(q(text), other, Date.now())).resolves.toMatchObject({ hits: expect.any(Array), partial: false });
    await expect(searchMembers(q(text))).resolves.toBeInstanceOf(Array);
  });

  it("finds members by nick name or organisation", async () => {
    const hits = await searchMembers(q("Water Lab"));
    expect(hits.map((h) => h.id)).toContain(owner);
  });

  it("finds an English-only item by its Japanese or Chinese title and abstract, and says which language matched", async () => {
    const id = await item("Rainwater harvesting on rooftops", "gutters and tanks", 1);
    await env.DB.prepare(
      `INSERT INTO item_texts (content_id, lang, title, summary, source, state, updated_at) VALUES
         (?1, 'ja', '屋上での雨水利用', '雨樋とタンクの研究', 'author', 'shown', 1),
         (?1, 'zh', '屋顶雨水收集', '机器建议的摘要', 'machine', 'suggested', 1)`,
    )
      .bind(id)
      .run();
    const hit = async (text: string) => (await searchContent(q(text), other, Date.now())).hits.find((h) => h.id === id);
    // A word of 3+ characters through the index, one of 2 through LIKE.
    for (const words of ["雨水利用", "雨樋"]) {
      expect(await hit(words), words).toMatchObject({ matched_lang: "ja", title: expect.stringContaining("屋上") });
    }
    expect(await hit("rooftops")).toMatchObject({ matched_lang: null, title: expect.stringContaining("Rainwater") });
    // A suggestion its owner has not accepted finds nothing.
    expect(await hit("屋顶雨水")).toBeUndefined();
    await env.DB.prepare("UPDATE item_texts SET state = 'shown' WHERE content_id = ? AND lang = 'zh'").bind(id).run();
    expect(await hit("屋顶雨水")).toMatchObject({ matched_lang: "zh" });
  });

  it("comes back whole from scripts/rebuild-search.sql after the indexes are lost", async () => {
    await item("Rebuilt groundwater atlas", "aquifer recharge", 1);
    const before = await titles("groundwater atlas");
    await env.DB.batch([env.DB.prepare("DELETE FROM content_fts"), env.DB.prepare("DELETE FROM member_fts")]);
    expect(await titles("groundwater atlas")).toEqual([]);
    const statements = rebuildSql
      .split(";")
      .map((s) => s.replace(/--.*$/gm, "").trim())
      .filter(Boolean);
    await env.DB.batch(statements.map((sql) => env.DB.prepare(sql)));
    expect(await titles("groundwater atlas")).toEqual(before);
    expect(before).toContain("Rebuilt groundwater atlas");
    expect((await searchMembers(q("Water Lab"))).map((h) => h.id)).toContain(owner);
  });

  it("keeps the last ten distinct searches, newest first, and clears them", async () => {
    for (let i = 0; i < 12; i++) await rememberSearch(other, `query ${i % 11}`, 1000 + i);
    const history = await searchHistory(other);
    expect(history).toHaveLength(10);
    expect(history[0]).toBe("query 0");
    await clearSearchHistory(other);
    expect(await searchHistory(other)).toEqual([]);
  });
});

describe("search over the text shards (decision 0045)", () => {
  it("merges every shard's documents newest first, and answers without a shard that fails, saying so", async () => {
    const author = await member("Shard Author");
    const ids: number[] = [];
    for (const shard of [2, 1, 3, 2]) {
      const id = await newItem(author, { title: "Notes", created_at: ids.length, text_shard: shard });
      await putText(id, `the fanoutword measurements, part ${ids.length}`);
      ids.push(id);
    }
    const newestFirst = [...ids].reverse();
    const all = await searchContent(q("fanoutword"), other, Date.now());
    expect([all.hits.map((hit) => hit.id), all.partial]).toEqual([newestFirst, false]);
    expect(all.hits.map((hit) => hit.passage?.text)).toEqual(newestFirst.map((_, i) => expect.stringContaining(`part ${3 - i}`)));
    // Shard 2 cannot answer (its text table is not where the query looks): the others' results, marked partial.
    const away = textShard(2);
    await away.prepare("ALTER TABLE document_text RENAME TO document_text_away").run();
    try {
      const degraded = await searchContent(q("fanoutword"), other, Date.now());
      expect([degraded.hits.map((hit) => hit.id), degraded.partial]).toEqual([[ids[2], ids[1]], true]);
      const page = await callRoute<{ items: { id: number }[]; partial: boolean }>(retrieval, {
        path: "/retrieval?q=fanoutword",
        token: await sessionFor(other),
      });
      expect([page.status, page.data.partial, page.data.items.length]).toEqual([200, true, 2]);
    } finally {
      await away.prepare("ALTER TABLE document_text_away RENAME TO document_text").run();
    }
    expect((await searchContent(q("fanoutword"), other, Date.now())).partial).toBe(false);
  });
});

describe("a shard that does not answer in time", () => {
  it("is left out of the answer, which says it is partial, while the others' rows stay", async () => {
    // Shard 2 answers only after the bound (a crafted slow shard; askShards is what searchContent asks through).
    const slow = textShard(2);
    const { rows, partial } = await askShards(
      "test",
      async (db) => {
        if (db === slow) await new Promise((resolve) => setTimeout(resolve, 500));
        return (await db.prepare("SELECT 1 AS one").all<{ one: number }>()).results;
      },
      100,
    );
    expect(partial).toBe(true);
    expect(rows.map((row) => row.shard).sort()).toEqual([1, 3]);
  });
});
