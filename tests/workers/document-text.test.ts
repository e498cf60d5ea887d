import { createExecutionContext, createMessageBatch, getQueueResult } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { deleteContent, updateContent } from "~/.server/content/content";
import { textStateOf } from "~/.server/content/document-text";
import { textShards } from "~/.server/databases";
import type { Job } from "~/.server/jobs/jobs";
import { searchContent, searchPage, searchQuerySchema } from "~/.server/search/search";
import { DOCUMENT_TEXT_MAX_CHARS, PDF_TEXT_MAX_MB, SEARCH_TEXT_WINDOW, TEXT_EXTRACT_ATTEMPTS } from "~/lib/limits";
import { makePdf } from "../../scripts/make-pdf.mjs";
import { consumeJobs } from "../../workers/queues";
import { newItem, newMember, shardOf, TEXT_SHARDS, until } from "./helpers";
import { logged } from "./log-sink";

/** A document whose file is in storage, waiting for its text, as an upload leaves it. */
async function pendingDocument(owner: number, bytes: Uint8Array | null, options: { publicize?: 0 | 1; size?: number } = {}) {
  const key = `text-test/${crypto.randomUUID()}`;
  if (bytes) await env.FILES.put(key, bytes);
  const row = await env.DB.prepare(
    `INSERT INTO content (owner_id, kind, sdg, title, summary, content, keywords, publicize, file_key, file_size, file_type,
       thumbnail_key, thumbnail_type, created_at, updated_at, text_state, text_queued_at)
     VALUES (?, 'document', 4, 'Field report', 'What we saw', 'Notes', 'field', ?, ?, ?, 'application/pdf', 't', 'image/png', 1, 1, 'pending', 1)
     RETURNING id`,
  )
    .bind(owner, options.publicize ?? 1, key, options.size ?? bytes?.length ?? 1)
    .first<{ id: number }>();
  return { id: Number(row?.id), key };
}

/** One delivery of the document's job to the consumer: what it asked to retry. */
async function deliver(id: number) {
  const batch = createMessageBatch<Job>("research-commons-jobs", [
    { id: crypto.randomUUID(), timestamp: new Date(), attempts: 1, body: { type: "document-text", id } },
  ]);
  await consumeJobs(batch);
  return (await getQueueResult(batch, createExecutionContext())).retryMessages;
}

const found = async (word: string, viewer: number) =>
  (await searchContent(searchQuerySchema.parse({ q: word }), viewer, Date.now())).hits.map((hit) => ({
    id: hit.id,
    passage: hit.passage,
  }));

/** Rows of the document's text in every shard (after its deletion, its own is not known). */
const textRows = async (id: number) => {
  let n = 0;
  for (const { db } of textShards())
    n += Number(await db.prepare("SELECT count(*) AS n FROM document_text WHERE content_id = ?").bind(id).first("n"));
  return n;
};

describe("a document's own text", () => {
  it("is read page by page, found by words in any script, with the passage and its page", async () => {
    const owner = await newMember("Text Owner");
    const reader = await newMember("Reader");
    const pdf = makePdf([
      ["An introduction without the words."],
      ["Results: the zephyrquill filter", "気候変動とふわもち観測", "清洁饮水鸿蒙猫舍"],
    ]);
    const { id } = await pendingDocument(owner, pdf);
    expect(await deliver(id)).toEqual([]);
    expect(await textStateOf(id)).toEqual({ state: "done", note: null, pages: 2, page_count: 2 });
    for (const word of ["zephyrquill", "ふわもち", "鸿蒙猫舍"]) {
      const hits = await found(word, reader);
      expect(hits.map((h) => h.id)).toEqual([id]);
      expect(hits[0]?.passage).toMatchObject({ page: 2 });
      expect(hits[0]?.passage?.text).toContain(`\u0001${word}\u0002`);
    }
    // A word in the form's fields needs no passage.
    expect((await found("Field report", reader))[0]?.passage).toBeNull();
  });

  it("says why a scanned, encrypted or broken file has none, without retrying, and never indexes it", async () => {
    const owner = await newMember("Unreadable");
    const cases = [
      { bytes: makePdf([null, null]), note: "no-text" },
      { bytes: makePdf([["locked words"]], { encrypted: true }), note: "encrypted" },
      { bytes: new TextEncoder().encode("%PDF-1.7\nnot really a pdf at all\n"), note: "broken" },
    ];
    for (const { bytes, note } of cases) {
      const { id } = await pendingDocument(owner, bytes);
      expect(await deliver(id)).toEqual([]);
      expect(await textStateOf(id)).toMatchObject({ state: "none", note, pages: null });
      expect(await textRows(id)).toBe(0);
    }
  });

  it("reads a large PDF within the limit, and says a larger one is too large without reading it", async () => {
    const owner = await newMember("Large");
    const large = makePdf([["the quokkaplume appendix"]], { padding: 20 * 1024 * 1024 });
    const within = await pendingDocument(owner, large);
    expect(await deliver(within.id)).toEqual([]);
    expect(await textStateOf(within.id)).toMatchObject({ state: "done", pages: 1 });
    expect((await found("quokkaplume", owner)).map((h) => h.id)).toEqual([within.id]);
    // Over the limit: not even fetched from storage (there is nothing there to fetch).
    const over = await pendingDocument(owner, null, { size: PDF_TEXT_MAX_MB * 1024 * 1024 + 1 });
    expect(await deliver(over.id)).toEqual([]);
    expect(await textStateOf(over.id)).toMatchObject({ state: "none", note: "too-large" });
  });

  it("is retried a bounded number of times, counting runs that never finished", async () => {
    const owner = await newMember("Retry");
    const pdf = makePdf([["the vellichor ledger"]]);
    const missing = await pendingDocument(owner, null, { size: pdf.length });
    // The file cannot be read: retried, still pending, until the last attempt marks it failed.
    for (let attempt = 1; attempt < TEXT_EXTRACT_ATTEMPTS; attempt++) {
      expect(await deliver(missing.id)).toHaveLength(1);
      expect((await textStateOf(missing.id))?.state).toBe("pending");
    }
    expect(await deliver(missing.id)).toEqual([]);
    expect(await textStateOf(missing.id)).toMatchObject({ state: "none", note: "failed" });
    // Giving up said so in the log, once, as one structured line naming the item (retries are the queue's).
    expect(logged("document_text.failed").filter((line) => line.id === missing.id)).toHaveLength(1);
    // Runs the isolate never finished (out of memory) left only their count: the next gives up unread.
    const crashing = await pendingDocument(owner, pdf);
    await env.DB.prepare("UPDATE content SET text_attempts = ? WHERE id = ?").bind(TEXT_EXTRACT_ATTEMPTS, crashing.id).run();
    expect(await deliver(crashing.id)).toEqual([]);
    expect(await textStateOf(crashing.id)).toMatchObject({ state: "none", note: "failed" });
  });

  it("delivered twice is stored once, and a failing repeat keeps what the first stored", async () => {
    const owner = await newMember("Twice");
    const { id, key } = await pendingDocument(owner, makePdf([["the vellichor ledger"]]));
    expect(await deliver(id)).toEqual([]);
    expect(await deliver(id)).toEqual([]);
    expect(await textRows(id)).toBe(1);
    expect((await found("vellichor", owner)).map((h) => h.id)).toEqual([id]);
    await env.FILES.delete(key);
    for (let attempt = 3; attempt <= TEXT_EXTRACT_ATTEMPTS + 1; attempt++) await deliver(id);
    expect((await textStateOf(id))?.state).toBe("done");
    expect((await found("vellichor", owner)).map((h) => h.id)).toEqual([id]);
  });

  it("drops characters that would fake a match's marks or reorder the passage, and says when the limit cut it", async () => {
    const owner = await newMember("Hidden");
    const full = Array.from({ length: 60 }, (_, i) => `line ${i} of a full page of notes about nothing much at all`);
    const pdf = makePdf([["the \u0001fake\u0002 mark and \u202Ereversed text of the quibblefrost study"], ...Array(100).fill(full)]);
    const { id } = await pendingDocument(owner, pdf);
    await deliver(id);
    const [hit] = await found("quibblefrost", owner);
    expect(hit?.passage?.text).toContain("\u0001quibblefrost\u0002");
    expect(hit?.passage?.text.replace("\u0001quibblefrost\u0002", "")).not.toMatch(/[\u0001\u0002\u202e]/u);
    // About 3,700 characters a page: DOCUMENT_TEXT_MAX_CHARS stops the reading before the last page.
    const text = await textStateOf(id);
    expect(text).toMatchObject({ state: "done", page_count: 101 });
    expect(text?.pages).toBeGreaterThan(50);
    expect(text?.pages).toBeLessThan(100);
    const stored = await (await shardOf(id))
      .prepare("SELECT length(body) AS n FROM document_text WHERE content_id = ?")
      .bind(id)
      .first<number>("n");
    expect(stored).toBeLessThanOrEqual(DOCUMENT_TEXT_MAX_CHARS);
  });

  it("finds a document once when its fields hold the word in another case (the index folds every script's case)", async () => {
    const owner = await newMember("Cases");
    const { id } = await pendingDocument(owner, makePdf([["die ärztekammer berichtet"]]));
    await env.DB.prepare("UPDATE content SET title = 'ÄRZTEKAMMER report' WHERE id = ?").bind(id).run();
    await deliver(id);
    const first = await searchPage(searchQuerySchema.parse({ q: "ärztekammer" }), owner, Date.now());
    expect(first.items.map((hit) => hit.id)).toEqual([id]);
  });

  it("looks only in the newest documents with text of all the shards together, so a search's work stays bounded", async () => {
    const owner = await newMember("Window");
    const { id } = await pendingDocument(owner, makePdf([["the oldest zyzzyvant notes"]]));
    await deliver(id);
    expect((await found("zyzzyvant", owner)).map((h) => h.id)).toEqual([id]);
    // SEARCH_TEXT_WINDOW newer documents with text, made in SQL, spread over the shards as uploads are:
    // each shard holds far fewer than the window, and together they fill it.
    await env.DB.prepare(
      `WITH RECURSIVE n(k) AS (SELECT 1 UNION ALL SELECT k + 1 FROM n WHERE k < ?)
       INSERT INTO content (owner_id, kind, sdg, title, summary, content, keywords, publicize, file_key, file_size, file_type,
         thumbnail_key, thumbnail_type, created_at, updated_at, text_state, text_shard)
       SELECT ?, 'document', 4, 'newer', 's', 'c', 'k', 1, 'window/' || k, 1, 'application/pdf', 't', 'image/png', 2, 2, 'done',
         1 + k % ? FROM n`,
    )
      .bind(SEARCH_TEXT_WINDOW + TEXT_SHARDS, owner, TEXT_SHARDS)
      .run();
    const { results: newer } = await env.DB.prepare("SELECT id, file_key, text_shard FROM content WHERE file_key LIKE 'window/%'").all<{
      id: number;
      file_key: string;
      text_shard: number;
    }>();
    for (const { n, db } of textShards()) {
      await db
        .prepare(
          "INSERT INTO document_text (content_id, file_key, body, pages, page_count, extracted_at) SELECT j.value ->> 0, j.value ->> 1, 'newer text', 1, 1, 2 FROM json_each(?) j",
        )
        .bind(JSON.stringify(newer.filter((row) => row.text_shard === n).map((row) => [row.id, row.file_key])))
        .run();
    }
    expect(await found("zyzzyvant", owner)).toEqual([]);
  });

  it("of a private item is found by its owner only; an edit keeps it, deletion removes it", async () => {
    const owner = await newMember("Private Owner");
    const stranger = await newMember("Stranger");
    const { id } = await pendingDocument(owner, makePdf([["the saudade manuscript"]]), { publicize: 0 });
    await deliver(id);
    expect((await found("saudade", owner)).map((h) => h.id)).toEqual([id]);
    expect(await found("saudade", stranger)).toEqual([]);
    // Made public and retitled: the text stays in the index under the new fields.
    const fields = { sdg: 4, title: "Renamed", summary: "s", content: "c", keywords: "k", publicize: "1", doi: null, authors: [] };
    expect(await updateContent(id, owner, fields as never, 2)).toBe(true);
    expect((await found("saudade", stranger)).map((h) => h.id)).toEqual([id]);
    expect(await deleteContent(id, owner)).toBe(true);
    expect(await found("saudade", owner)).toEqual([]);
    // The shard's copy goes with the follow-up the deletion queued.
    await until(async () => (await textRows(id)) === 0 || null);
  });

  it("finds documents by their text after every match in the fields, page after page, each once", async () => {
    const owner = await newMember("Pages");
    const reader = await newMember("Pager");
    const inFields: string[] = [];
    for (let i = 0; i < 3; i++) inFields.push((await newItem(owner, { title: `lumenquest field study ${i}`, created_at: 5 })).toString());
    const byText: number[] = [];
    for (let i = 0; i < 22; i++) {
      const { id } = await pendingDocument(owner, makePdf([["intro"], [`the lumenquest trial ${i}`]]));
      await deliver(id);
      byText.push(id);
    }
    const page = async (n: number) => searchPage(searchQuerySchema.parse({ q: "lumenquest", page: n }), reader, Date.now());
    const first = await page(1);
    const second = await page(2);
    expect(first.has_more).toBe(true);
    expect(second.has_more).toBe(false);
    const ids = [...first.items, ...second.items].map((hit) => hit.id);
    // The fields' matches first, then the text's, newest first; every one once.
    expect(ids.slice(0, 3).map(String).sort()).toEqual(inFields.sort());
    expect(ids.slice(3)).toEqual([...byText].reverse());
    expect(second.items.every((hit) => "passage" in hit && hit.passage && "page" in hit.passage && hit.passage.page === 2)).toBe(true);
  });

  it("of every document left pending too long is queued again by the cron", async () => {
    const owner = await newMember("Stalled");
    const { id } = await pendingDocument(owner, makePdf([["the petrichor notes"]]));
    const { stalledDocuments } = await import("~/.server/content/document-text");
    const now = Date.now();
    expect(await stalledDocuments(now)).toContainEqual({ type: "document-text", id });
    // Queued now: not again on the next run.
    expect(await stalledDocuments(now + 1000)).not.toContainEqual({ type: "document-text", id });
  });
});
