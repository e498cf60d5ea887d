import { createExecutionContext, createMessageBatch, getQueueResult } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { parse } from "csv-parse/browser/esm/sync";
import { describe, expect, it } from "vitest";
import { feedQuerySchema, listFeed } from "~/.server/content/feed";
import { foldReadings } from "~/.server/stats/fold";
import { statsQuerySchema } from "~/.server/stats/query";
import { downloadOf, type Reading, type ReadingKind, readingOf } from "~/.server/stats/readings";
import { itemStats, memberStats } from "~/.server/stats/stats";
import { agentOf, servedOf } from "~/.server/web/readings";
import * as detail from "~/routes/content-detail/route";
import * as statsCsv from "~/routes/stats/csv";
import * as statsPage from "~/routes/stats/route";
import { consumeQueue } from "../../workers/queues";
import { d1Statements, newItem, newMember, until } from "./helpers";
import { callRoute, sessionFor } from "./route";

// Statistics (issue 32, decision 0039): readings go through the stats queue and are folded into
// per-item daily rows; these prove how they count, against the real queue and D1.

const BROWSER = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36";
const browsing = (headers: Record<string, string> = {}) =>
  new Request("http://127.0.0.1/x", { headers: { "User-Agent": BROWSER, ...headers } });
const NOON = Date.UTC(2026, 10, 25, 12);

async function itemOf(zone = "UTC") {
  const owner = await newMember("Owner");
  await env.DB.prepare("UPDATE users SET time_zone = ? WHERE id = ?").bind(zone, owner).run();
  const id = await newItem(owner);
  return { owner, item: { id, owner_id: owner, owner_zone: zone } };
}

const reading = (
  kind: ReadingKind,
  item: { id: number; owner_id: number; owner_zone: string },
  member: number,
  at: number,
  type: 1 | 2 = 1,
) => readingOf(kind, item, { id: member, account_type: type }, agentOf(browsing()), at) as Reading;

// The folded rows are the statistics database's (decision 0045); the count on cards is the core's.
const days = (item: number) =>
  env.STATS_DB.prepare("SELECT day, kind, reader_type, n, readers FROM stat_days WHERE content_id = ? ORDER BY day, kind, reader_type")
    .bind(item)
    .all()
    .then((r) => r.results);

const views = (item: number) => env.DB.prepare("SELECT views FROM content WHERE id = ?").bind(item).first<number>("views");

const query = (range = "30d") => statsQuerySchema.parse({ range });

describe("counting readings", () => {
  it("counts two opens within 30 s once, and again after 30 s; readers once a day", async () => {
    const { item } = await itemOf();
    const reader = await newMember("Reader");
    await foldReadings([reading("view", item, reader, NOON), reading("view", item, reader, NOON + 29_000)]);
    await foldReadings([reading("view", item, reader, NOON + 10_000)]);
    expect(await days(item.id)).toEqual([{ day: "2026-11-25", kind: "view", reader_type: 1, n: 1, readers: 1 }]);
    await foldReadings([reading("view", item, reader, NOON + 60_000)]);
    expect(await days(item.id)).toEqual([{ day: "2026-11-25", kind: "view", reader_type: 1, n: 2, readers: 1 }]);
    // The count on cards ("most viewed") is copied to the core by the fold, counting the day's readers.
    expect(await views(item.id)).toBe(1);
  });

  it("counts one member's views of an item once a day toward \"most viewed\", and each member's", async () => {
    const bought = await itemOf();
    const honest = await itemOf();
    const buyer = await newMember("Buyer");
    // A view every 31 s with a browser's User-Agent, all day: every one is a COUNTER view...
    await foldReadings(Array.from({ length: 50 }, (_, i) => reading("view", bought.item, buyer, NOON + i * 31_000)));
    await foldReadings([reading("view", bought.item, buyer, NOON + 3_600_000)]);
    expect((await days(bought.item.id))[0]).toMatchObject({ n: 51, readers: 1 });
    // ...but one reader of the day; three members once each are three, and the next day counts again.
    const readers = await Promise.all(Array.from({ length: 3 }, () => newMember("Reader")));
    await foldReadings(readers.map((member, i) => reading("view", honest.item, member, NOON + i)));
    expect([await views(bought.item.id), await views(honest.item.id)]).toEqual([1, 3]);
    const ranked = (await listFeed(feedQuerySchema.parse({ sort: "views" }), 10_000)).items.map((row) => row.id);
    expect(ranked.filter((id) => id === bought.item.id || id === honest.item.id)).toEqual([honest.item.id, bought.item.id]);
    await foldReadings([reading("view", bought.item, buyer, NOON + 86_400_000)]);
    expect(await views(bought.item.id)).toBe(2);
  });

  it('counts two views of one member at once once toward "most viewed", however the batches race', async () => {
    const { item } = await itemOf();
    const reader = await newMember("Reader");
    await Promise.all([foldReadings([reading("view", item, reader, NOON)]), foldReadings([reading("view", item, reader, NOON + 40_000)])]);
    expect((await days(item.id))[0]).toMatchObject({ n: 2, readers: 1 });
    expect(await views(item.id)).toBe(1);
  });

  it("counts two opens at once once, however the batches race", async () => {
    const { item } = await itemOf();
    const reader = await newMember("Reader");
    await Promise.all([foldReadings([reading("view", item, reader, NOON)]), foldReadings([reading("view", item, reader, NOON + 1000)])]);
    expect(await views(item.id)).toBe(1);
  });

  it("does not count a robot or the owner", async () => {
    const { owner, item } = await itemOf();
    const reader = { id: await newMember("Reader"), account_type: 1 as const };
    const bot = new Request("http://127.0.0.1/x", {
      headers: { "User-Agent": "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)" },
    });
    expect(readingOf("view", item, reader, agentOf(bot), NOON)).toBeNull();
    expect(readingOf("view", item, reader, agentOf(new Request("http://127.0.0.1/x")), NOON)).toBeNull();
    expect(readingOf("view", item, { id: owner, account_type: 1 }, agentOf(browsing()), NOON)).toBeNull();
    expect(readingOf("view", item, reader, agentOf(browsing()), NOON)).toMatchObject({ kind: "view", content: item.id, member: reader.id });
  });

  it("counts a redelivered batch once", async () => {
    const { item } = await itemOf();
    const reader = await newMember("Reader");
    const body = reading("export", item, reader, NOON);
    for (let delivery = 1; delivery <= 2; delivery++) {
      const batch = createMessageBatch<Reading>("research-commons-stats", [
        { id: `m${delivery}`, timestamp: new Date(), attempts: delivery, body },
      ]);
      await consumeQueue(batch);
      expect((await getQueueResult(batch, createExecutionContext())).ackAll).toBe(true);
    }
    expect(await days(item.id)).toEqual([{ day: "2026-11-25", kind: "export", reader_type: 1, n: 1, readers: 1 }]);
  });

  it("counts one download for a reading's range requests, once a day", async () => {
    const { item } = await itemOf();
    const reader = { id: await newMember("Reader"), account_type: 2 as const };
    const whole = new Response("x", { status: 200 });
    const part = new Response("x", { status: 206 });
    expect(downloadOf(item, reader, servedOf(browsing({ Range: "bytes=65536-131071" }), part), NOON)).toBeNull();
    const first = downloadOf(item, reader, servedOf(browsing({ Range: "bytes=0-65535" }), part), NOON);
    expect(first).not.toBeNull();
    // A second reading later the same day (not within 30 s) is the same day's download.
    await foldReadings([first as Reading, downloadOf(item, reader, servedOf(browsing(), whole), NOON + 3_600_000) as Reading]);
    expect(await days(item.id)).toEqual([{ day: "2026-11-25", kind: "download", reader_type: 2, n: 1, readers: 1 }]);
  });

  it("folds a batch of 100 readings in five D1 statements", async () => {
    const { item } = await itemOf();
    const readers = await Promise.all(Array.from({ length: 10 }, () => newMember("Reader")));
    const batch = readers.flatMap((member, i) =>
      Array.from({ length: 10 }, (_, k) => reading("view", item, member, NOON + i * 1000 + k * 31_000)),
    );
    const statements = await d1Statements(() => foldReadings(batch));
    // The items' owners from the core, the fold's batch in the statistics database (the days, the
    // readings, the counts after), and the counts copied to the core.
    expect(statements, statements.join("\n")).toHaveLength(5);
    expect((await days(item.id))[0]).toMatchObject({ n: 100, readers: 10 });
    expect(await views(item.id)).toBe(10);
  });

  it("counts on the owner's days, in the owner's time zone", async () => {
    const { owner, item } = await itemOf("Asia/Tokyo");
    const reader = await newMember("Reader");
    // 16:30 UTC on the 25th is 01:30 on the 26th in Tokyo.
    const late = Date.UTC(2026, 10, 25, 16, 30);
    await foldReadings([reading("view", item, reader, late)]);
    await env.DB.prepare("INSERT INTO likes (user_id, content_id, created_at) VALUES (?, ?, ?)").bind(reader, item.id, late).run();
    expect((await days(item.id))[0]).toMatchObject({ day: "2026-11-26" });
    const { overview } = await memberStats(owner, query(), Date.UTC(2026, 10, 26, 3));
    expect(overview.zone).toBe("Asia/Tokyo");
    expect(overview.to).toBe("2026-11-26");
    const at = overview.buckets.indexOf("2026-11-26");
    expect(overview.series.views?.[at]).toBe(1);
    expect(overview.series.likes?.[at]).toBe(1);
    expect(overview.series.likes?.[at - 1]).toBe(0);
  });

  it("a member's statistics: series, totals against the period before, the item table and readers by type", async () => {
    const { owner, item } = await itemOf();
    const [researcher, supporter] = [await newMember("R", 1), await newMember("S", 2)];
    const now = NOON;
    await foldReadings([
      reading("view", item, researcher, now - 40 * 86_400_000),
      // In the 30 days, in the month before this one (the item table reads it from days, this month from months).
      reading("view", item, supporter, now - 27 * 86_400_000, 2),
      reading("view", item, researcher, now),
      reading("view", item, supporter, now, 2),
      reading("download", item, supporter, now, 2),
      reading("export", item, researcher, now),
    ]);
    await env.DB.prepare("INSERT INTO follows (follower_id, followee_id, created_at) VALUES (?, ?, ?)").bind(researcher, owner, now).run();
    await env.DB.prepare("INSERT INTO comments (content_id, user_id, body, created_at) VALUES (?, ?, 'hi', ?)")
      .bind(item.id, supporter, now)
      .run();
    const { overview, items } = await memberStats(owner, query(), now);
    expect(overview.totals).toEqual({ views: 3, downloads: 1, exports: 1, likes: 0, comments: 1, followers: 1 });
    expect(overview.previous?.views).toBe(1);
    expect(overview.buckets).toHaveLength(30);
    expect(overview.series.views?.at(-1)).toBe(2);
    expect(items).toEqual([
      expect.objectContaining({ id: item.id, counts: { views: 3, downloads: 1, exports: 1, likes: 0, comments: 1 } }),
    ]);
    const year = await memberStats(owner, query("12m"), now);
    expect(year.overview.per).toBe("month");
    expect(year.overview.totals.views).toBe(4);
    expect(year.items[0]?.counts.views).toBe(4);
    const one = await itemStats(item.id, owner, query(), now);
    expect(one.readers).toEqual({ researchers: 1, supporters: 2 });
    expect(one.overview.totals).toEqual({ views: 3, downloads: 1, exports: 1, likes: 0, comments: 1 });
  });

  it("a view through the detail page reaches the queue after the answer and is counted", async () => {
    const { item } = await itemOf();
    const reader = await newMember("Reader");
    const token = await sessionFor(reader);
    const page = await callRoute(detail, { path: `/retrieval/detail?id=${item.id}`, token, headers: { "User-Agent": BROWSER } });
    expect(page.status).toBe(200);
    expect(await until(() => views(item.id))).toBe(1);
  });

  it("the page and its CSV say the same numbers; the item table sorts and pages through links", async () => {
    const { owner, item } = await itemOf();
    const second = { ...item, id: await newItem(owner, { title: "=SUM(A1)" }) };
    const reader = await newMember("Reader");
    const now = Date.now();
    await foldReadings([reading("view", item, reader, now), reading("download", item, reader, now), reading("view", second, reader, now)]);
    const token = await sessionFor(owner);
    type Page = { view: { totals: Record<string, number> }; items: { id: number; counts: Record<string, number> }[]; pages: number };
    const page = await callRoute<Page>(statsPage, { path: "/personal/stats?sort=title", token });
    expect(page.data.view.totals).toMatchObject({ views: 2, downloads: 1 });
    expect(page.data.items.map((row) => row.id)).toEqual([second.id, item.id]);
    const csv = async (table: string) => {
      const answer = await callRoute(statsCsv, { path: `/personal/stats/csv?table=${table}`, token, inLayout: false });
      expect(answer.headers.get("Content-Type")).toBe("text/csv; charset=utf-8");
      return parse(answer.body, { columns: true }) as Record<string, string>[];
    };
    const series = await csv("series");
    expect(series).toHaveLength(30);
    expect(series.reduce((sum, row) => sum + Number(row.views), 0)).toBe(2);
    const items = await csv("items");
    expect(items.find((row) => Number(row.id) === item.id)).toMatchObject({ views: "1", downloads: "1" });
    // A title that reads as a formula in a spreadsheet is escaped.
    expect(items.find((row) => Number(row.id) === second.id)?.title).toBe("'=SUM(A1)");
  });
});
