import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { deleteAccount } from "~/.server/accounts/delete-account";
import { captionCues, captionSet, saveCaptions } from "~/.server/content/captions";
import { deleteContent } from "~/.server/content/content";
import { extractDocumentText } from "~/.server/content/document-text";
import { addVersion } from "~/.server/content/versions";
import { textShard, textShards } from "~/.server/databases";
import { runFollowup, staleFollowups } from "~/.server/followups/followups";
import { searchContent, searchQuerySchema } from "~/.server/search/search";
import { FOLLOWUP_GRACE_MINUTES } from "~/lib/limits";
import { makePdf } from "../../scripts/make-pdf.mjs";
import { mp4Bytes } from "../fixtures/files";
import { newMember, testCaller } from "./helpers";
import { account, PASSWORD } from "./pages/page-helpers";

// Writes that span two databases (issue 46, decision 0045): each path stopped between its two
// writes by a trigger that aborts the second, then made whole by the follow-up the cron queues.
// Nothing accepted is lost, nothing is stored twice, nothing is left behind.

/** Makes the statements a trigger names fail, in the core or a shard; answers how to recover. */
async function stop(db: D1Database, when: string) {
  const name = `stopped_${crypto.randomUUID().replace(/-/g, "")}`;
  await db.prepare(`CREATE TRIGGER ${name} ${when} BEGIN SELECT RAISE(ABORT, 'stopped here'); END`).run();
  return () => db.prepare(`DROP TRIGGER ${name}`).run();
}

/** The cron's part, past the grace period: every record left made whole, as its jobs would. */
async function followUp() {
  const now = Date.now() + (FOLLOWUP_GRACE_MINUTES + 1) * 60_000;
  for (const job of await staleFollowups(now, 1000)) await runFollowup(job.id, now);
}

/** Rows of `table` about item `id` in every shard. */
async function inShards(table: "document_text" | "caption_cues", id: number) {
  let n = 0;
  for (const { db } of textShards())
    n += Number(await db.prepare(`SELECT count(*) AS n FROM ${table} WHERE content_id = ?`).bind(id).first("n"));
  return n;
}

const records = async (id: number) =>
  Number(await env.DB.prepare("SELECT count(*) AS n FROM shard_followups WHERE subject = ? AND target LIKE 'text:%'").bind(id).first("n"));

const found = async (word: string, viewer: number, tab: "documents" | "videos" = "documents") =>
  (await searchContent(searchQuerySchema.parse({ q: word, tab }), viewer, Date.now())).hits.map((hit) => hit.id);

/** An item whose file is in storage, as an upload leaves it (a document waits for its text), in shard 2. */
async function stored(owner: number, kind: "document" | "video", bytes: Uint8Array) {
  const key = `cross/${crypto.randomUUID()}`;
  await env.FILES.put(key, bytes);
  const row = await env.DB.prepare(
    `INSERT INTO content (owner_id, kind, sdg, title, summary, content, keywords, publicize, file_key, file_size, file_type,
       thumbnail_key, thumbnail_type, created_at, updated_at, text_state, text_queued_at, text_shard)
     VALUES (?1, ?2, 6, 'Wells', 'Water', 'Notes', 'water', 1, ?3, ?4, ?5, 't', 'image/png', 1, 1,
       CASE ?2 WHEN 'document' THEN 'pending' END, 1, 2) RETURNING id`,
  )
    .bind(owner, kind, key, bytes.length, kind === "document" ? "application/pdf" : "video/mp4")
    .first<{ id: number }>();
  return Number(row?.id);
}

const textState = (id: number) => env.DB.prepare("SELECT text_state FROM content WHERE id = ?").bind(id).first<string>("text_state");
const cue = (text: string) => [{ start_ms: 1000, end_ms: 2000, text }];

describe("a write across two databases stopped halfway", () => {
  it("an upload's text: stored in the shard, not yet done in the core; the retry finishes it once, and an item deleted meanwhile keeps none", async () => {
    const owner = await newMember("Stopped text");
    const id = await stored(owner, "document", makePdf([["the haltword field notes"]]));
    const recover = await stop(env.DB, "BEFORE UPDATE OF text_state ON content WHEN NEW.text_state = 'done'");
    await expect(extractDocumentText(id)).rejects.toThrow(/stopped here/);
    // Between the two writes: the shard has it, the core does not say so, search does not show it.
    expect([await inShards("document_text", id), await textState(id), await records(id)]).toEqual([1, "pending", 1]);
    expect(await found("haltword", owner)).toEqual([]);
    // A follow-up run now leaves text the job may yet claim (written within the margin), and keeps the record.
    const record = Number(await env.DB.prepare("SELECT id FROM shard_followups WHERE subject = ?").bind(id).first("id"));
    await runFollowup(record, Date.now());
    expect([await inShards("document_text", id), await records(id)]).toEqual([1, 1]);
    await recover();
    // The queue's retry, then the cron's follow-up for the stopped run's record.
    await extractDocumentText(id);
    await followUp();
    expect([await inShards("document_text", id), await textState(id), await records(id)]).toEqual([1, "done", 0]);
    expect(await found("haltword", owner)).toEqual([id]);

    // Stopped again, and the item deleted before any retry: the follow-up takes its text.
    const gone = await stored(owner, "document", makePdf([["the vanishword field notes"]]));
    const again = await stop(env.DB, "BEFORE UPDATE OF text_state ON content WHEN NEW.text_state = 'done'");
    await expect(extractDocumentText(gone)).rejects.toThrow(/stopped here/);
    await again();
    // A job that stopped and was never retried: past the grace period its text, which the core never marked done, goes.
    const never = await stored(owner, "document", makePdf([["the strandedword field notes"]]));
    const stopNever = await stop(env.DB, "BEFORE UPDATE OF text_state ON content WHEN NEW.text_state = 'done'");
    await expect(extractDocumentText(never)).rejects.toThrow(/stopped here/);
    await stopNever();
    expect(await deleteContent(gone, owner)).toBe(true);
    await followUp();
    expect([await inShards("document_text", gone), await records(gone)]).toEqual([0, 0]);
    expect([await inShards("document_text", never), await records(never), await textState(never)]).toEqual([0, 0, "pending"]);
  });

  it("a new version: the earlier text leaves search with the core's write, and the shard by the follow-up, whatever the new file's job does", async () => {
    const owner = await newMember("Stopped version");
    const id = await stored(owner, "document", makePdf([["the firstcut measurements"]]));
    await extractDocumentText(id);
    expect(await found("firstcut", owner)).toEqual([id]);
    // The shard refuses to delete text, so the follow-up the version queues fails; the new file is not
    // in storage, so its text job never writes either.
    const recover = await stop(textShard(2), "BEFORE DELETE ON document_text");
    const made = await addVersion(
      id,
      owner,
      { note: "New wells", license: undefined, doi: null },
      { key: `cross/${crypto.randomUUID()}`, size: 1000, type: "application/pdf" },
      undefined,
      Date.now(),
    );
    expect(made.created).toBe(true);
    // Between the two writes: the old text is still in the shard, and no longer found.
    expect(await inShards("document_text", id)).toBe(1);
    expect(await found("firstcut", owner)).toEqual([]);
    await recover();
    await followUp();
    expect(await inShards("document_text", id)).toBe(0);
    expect(await found("firstcut", owner)).toEqual([]);
  });

  it("captions: the set it replaces stays whole and shown; the stopped write's cues go, and the write made again is stored once", async () => {
    const owner = await newMember("Stopped captions");
    const id = await stored(owner, "video", mp4Bytes(4096));
    expect(await saveCaptions(id, "en", cue("keptword here"), "owner", Date.now())).toBe(true);
    const recover = await stop(env.DB, "BEFORE UPDATE OF state ON captions");
    await expect(saveCaptions(id, "en", cue("lostword here"), "owner", Date.now())).rejects.toThrow(/stopped here/);
    // Between the two writes: both sets' cues in the shard, the old one shown and found, the new one neither.
    expect(await inShards("caption_cues", id)).toBe(2);
    expect((await captionCues(await captionSet(id, "en"))).map((c) => c.text)).toEqual(["keptword here"]);
    expect([await found("keptword", owner, "videos"), await found("lostword", owner, "videos")]).toEqual([[id], []]);
    // A follow-up run now (a lost job's, a deletion's) leaves a write that may still finish alone, and keeps its record.
    const record = Number(await env.DB.prepare("SELECT id FROM shard_followups WHERE subject = ?").bind(id).first("id"));
    await runFollowup(record, Date.now());
    expect([await inShards("caption_cues", id), await records(id)]).toEqual([2, 1]);
    await recover();
    await followUp();
    expect([await inShards("caption_cues", id), await records(id)]).toEqual([1, 0]);
    expect(Number(await env.DB.prepare("SELECT count(*) AS n FROM captions WHERE content_id = ?").bind(id).first("n"))).toBe(1);
    expect(await saveCaptions(id, "en", cue("lostword here"), "owner", Date.now())).toBe(true);
    expect((await captionCues(await captionSet(id, "en"))).map((c) => c.text)).toEqual(["lostword here"]);
    expect([await inShards("caption_cues", id), await found("lostword", owner, "videos")]).toEqual([1, [id]]);
  });

  it("deleting an item or an account: gone from the core at once, from the shard by the follow-up once the shard takes it", async () => {
    const { id: owner } = await account();
    const video = await stored(owner, "video", mp4Bytes(4096));
    expect(await saveCaptions(video, "en", cue("erasedword here"), "owner", Date.now())).toBe(true);
    const document = await stored(owner, "document", makePdf([["the erasedtext notes"]]));
    await extractDocumentText(document);
    const recover = await stop(textShard(2), "BEFORE DELETE ON caption_cues");
    const recoverText = await stop(textShard(2), "BEFORE DELETE ON document_text");
    expect(await deleteContent(video, owner)).toBe(true);
    await deleteAccount(owner, PASSWORD, testCaller().caller);
    // Between the two writes: nothing of them is shown or found, and the shard still holds it.
    const stranger = await newMember("Stranger");
    expect([await found("erasedword", stranger, "videos"), await found("erasedtext", stranger)]).toEqual([[], []]);
    expect([await inShards("caption_cues", video), await inShards("document_text", document)]).toEqual([1, 1]);
    await recover();
    await recoverText();
    await followUp();
    expect([await inShards("caption_cues", video), await inShards("document_text", document)]).toEqual([0, 0]);
    expect([await records(video), await records(document)]).toEqual([0, 0]);
  });
});
