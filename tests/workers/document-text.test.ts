import { createExecutionContext, createMessageBatch, getQueueResult } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { deleteContent, updateContent } from "~/.server/content/content";
import { textStateOf } from "~/.server/content/document-text";
import { consumeJobs } from "~/.server/jobs/consume";
import type { Job } from "~/.server/jobs/queue";
import { searchContent, searchPage, searchQuerySchema } from "~/.server/search/search";
import { PDF_TEXT_MAX_MB, TEXT_EXTRACT_ATTEMPTS } from "~/lib/limits";
import { makePdf } from "../../scripts/make-pdf.mjs";
import { newItem, newMember } from "./helpers";

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
async function deliver(id: number, attempts = 1) {
  const batch = createMessageBatch<Job>("research-commons-jobs", [
    { id: crypto.randomUUID(), timestamp: new Date(), attempts, body: { type: "document-text", id } },
  ]);
  await consumeJobs(batch, env);
  return (await getQueueResult(batch, createExecutionContext())).retryMessages;
}

const found = async (word: string, viewer: number) =>
  (await searchContent(env.DB, searchQuerySchema.parse({ q: word }), viewer, Date.now())).map((hit) => ({
    id: hit.id,
    passage: hit.passage,
  }));

const textRows = async (id: number) =>
  env.DB.prepare("SELECT count(*) AS n FROM document_text WHERE content_id = ?").bind(id).first<number>("n");

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
    expect(await textStateOf(env.DB, id)).toEqual({ state: "done", note: null, pages: 2, page_count: 2 });
    for (const word of ["zephyrquill", "ふわもち", "鸿蒙猫舍"]) {
      const hits = await found(word, reader);
      expect(hits.map((h) => h.id)).toEqual([id]);
      expect(hits[0]?.passage?.page).toBe(2);
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
      expect(await textStateOf(env.DB, id)).toMatchObject({ state: "none", note, pages: null });
      expect(await textRows(id)).toBe(0);
    }
  });

  it("reads a large PDF within the limit, and says a larger one is too large without reading it", async () => {
    const owner = await newMember("Large");
    const large = makePdf([["the quokkaplume appendix"]], { padding: 20 * 1024 * 1024 });
    const within = await pendingDocument(owner, large);
    expect(await deliver(within.id)).toEqual([]);
    expect(await textStateOf(env.DB, within.id)).toMatchObject({ state: "done", pages: 1 });
    expect((await found("quokkaplume", owner)).map((h) => h.id)).toEqual([within.id]);
    // Over the limit: not even fetched from storage (there is nothing there to fetch).
    const over = await pendingDocument(owner, null, { size: PDF_TEXT_MAX_MB * 1024 * 1024 + 1 });
    expect(await deliver(over.id)).toEqual([]);
    expect(await textStateOf(env.DB, over.id)).toMatchObject({ state: "none", note: "too-large" });
  });

  it("is retried a bounded number of times, and a repeated job replaces the text instead of adding to it", async () => {
    const owner = await newMember("Retry");
    const pdf = makePdf([["the vellichor ledger"]]);
    const { id, key } = await pendingDocument(owner, null, { size: pdf.length });
    // The file is not readable yet: retried, still pending, until the last attempt marks it failed.
    for (let attempt = 1; attempt < TEXT_EXTRACT_ATTEMPTS; attempt++) {
      expect(await deliver(id, attempt)).toHaveLength(1);
      expect((await textStateOf(env.DB, id))?.state).toBe("pending");
    }
    expect(await deliver(id, TEXT_EXTRACT_ATTEMPTS)).toEqual([]);
    expect(await textStateOf(env.DB, id)).toMatchObject({ state: "none", note: "failed" });
    // Once readable (the cron queues it again), delivered twice: one text, found once.
    await env.FILES.put(key, pdf);
    await env.DB.prepare("UPDATE content SET text_state = 'pending' WHERE id = ?").bind(id).run();
    expect(await deliver(id)).toEqual([]);
    expect(await deliver(id)).toEqual([]);
    expect(await textRows(id)).toBe(1);
    expect((await found("vellichor", owner)).map((h) => h.id)).toEqual([id]);
    // A repeat that fails after a success leaves the text in place.
    await env.FILES.delete(key);
    expect(await deliver(id, TEXT_EXTRACT_ATTEMPTS)).toEqual([]);
    expect((await textStateOf(env.DB, id))?.state).toBe("done");
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
    expect(await updateContent(env.DB, id, owner, fields as never, 2)).toBe(true);
    expect((await found("saudade", stranger)).map((h) => h.id)).toEqual([id]);
    expect(await deleteContent(env.DB, env.FILES, id, owner)).toBe(true);
    expect(await found("saudade", owner)).toEqual([]);
    expect(await textRows(id)).toBe(0);
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
    const page = async (n: number) => searchPage(env.DB, searchQuerySchema.parse({ q: "lumenquest", page: n }), reader, Date.now());
    const first = await page(1);
    const second = await page(2);
    expect(first.hasMore).toBe(true);
    expect(second.hasMore).toBe(false);
    const ids = [...first.items, ...second.items].map((hit) => hit.id);
    // The fields' matches first, then the text's, newest first; every one once.
    expect(ids.slice(0, 3).map(String).sort()).toEqual(inFields.sort());
    expect(ids.slice(3)).toEqual([...byText].reverse());
    expect(second.items.every((hit) => "passage" in hit && hit.passage?.page === 2)).toBe(true);
  });

  it("of every document left pending too long is queued again by the cron", async () => {
    const owner = await newMember("Stalled");
    const { id } = await pendingDocument(owner, makePdf([["the petrichor notes"]]));
    const { stalledDocuments } = await import("~/.server/content/document-text");
    const now = Date.now();
    expect(await stalledDocuments(env.DB, now)).toContainEqual({ type: "document-text", id });
    // Queued now: not again on the next run.
    expect(await stalledDocuments(env.DB, now + 1000)).not.toContainEqual({ type: "document-text", id });
  });
});
