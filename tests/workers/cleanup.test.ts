import { env } from "cloudflare:workers";
import { describe, expect, it, vi } from "vitest";
import { createSession } from "~/.server/accounts/sessions";
import { completeUpload, putPart, startUpload, uploadStatus } from "~/.server/content/chunked";
import { deleteContent } from "~/.server/content/content";
import { CLEANUP_BATCH, cleanUp, UPLOAD_MAX_AGE_MS } from "~/.server/cron/cleanup";
import { SESSION_IDLE_MS } from "~/lib/config";
import { MAX_OPEN_UPLOADS } from "~/lib/limits";
import { pdfBytes } from "../fixtures/files";
import { newItem, newMember } from "./helpers";

const count = async (sql: string, ...values: unknown[]) =>
  Number(
    await env.DB.prepare(sql)
      .bind(...values)
      .first("n"),
  );

describe("the cron trigger's cleanup", () => {
  it("removes ended sessions, expired codes and old login failures, and keeps what is alive", async () => {
    const now = Date.UTC(2026, 10, 22, 12);
    const me = await newMember("Sleeper");
    await createSession(me, now - SESSION_IDLE_MS - 1); // idle too long
    await createSession(me, now - 60_000); // in use
    await env.DB.batch([
      env.DB.prepare(
        "INSERT INTO verification_codes (email, purpose, code_hash, created_at, expires_at) VALUES ('old@c.example', 'reset', 'h', 0, ?)",
      ).bind(now - 1),
      env.DB.prepare(
        "INSERT INTO verification_codes (email, purpose, code_hash, created_at, expires_at) VALUES ('new@c.example', 'reset', 'h', 0, ?)",
      ).bind(now + 60_000),
      env.DB.prepare("INSERT INTO login_failures (email, client, failures, last_failed_at) VALUES ('old@c.example', 'x', 3, ?)").bind(
        now - 2 * 86_400_000,
      ),
      env.DB.prepare("INSERT INTO login_failures (email, client, failures, last_failed_at) VALUES ('new@c.example', 'x', 3, ?)").bind(
        now - 60_000,
      ),
    ]);
    await cleanUp(now);
    expect(await count("SELECT count(*) AS n FROM sessions WHERE user_id = ?", me)).toBe(1);
    expect(await count("SELECT count(*) AS n FROM verification_codes WHERE email IN ('old@c.example', 'new@c.example')")).toBe(1);
    expect(await count("SELECT count(*) AS n FROM login_failures WHERE email IN ('old@c.example', 'new@c.example')")).toBe(1);
  });

  it("takes at most one batch per run", async () => {
    const now = Date.UTC(2026, 10, 23);
    await cleanUp(now); // whatever other tests left expired
    await env.DB.prepare(
      `WITH RECURSIVE n(k) AS (SELECT 1 UNION ALL SELECT k + 1 FROM n WHERE k < ${CLEANUP_BATCH + 10})
       INSERT INTO verification_codes (email, purpose, code_hash, created_at, expires_at) SELECT 'batch' || k || '@c.example', 'register', 'h', 0, 1 FROM n`,
    ).run();
    const first = await cleanUp(now);
    expect(first.codes).toBe(CLEANUP_BATCH);
    expect((await cleanUp(now)).codes).toBe(10);
  });

  it("aborts abandoned uploads in R2 and forgets them, finished or not; a recent one stays", async () => {
    const me = await newMember("Abandoner");
    const start = Date.UTC(2026, 10, 20);
    const pdf = pdfBytes("abandoned");
    const open = await startUpload(me, 20 * 1024 * 1024, start);
    const done = await startUpload(me, pdf.length, start);
    await putPart(done.id, me, 1, pdf.slice().buffer as ArrayBuffer);
    await completeUpload(done.id, me);
    const key =
      (await env.DB.prepare("SELECT object_key FROM uploads WHERE id = ?").bind(done.id).first<{ object_key: string }>())?.object_key ?? "";
    expect(await env.FILES.head(key)).not.toBeNull();
    const recent = await startUpload(me, pdf.length, start + UPLOAD_MAX_AGE_MS);
    const removed = await cleanUp(start + UPLOAD_MAX_AGE_MS + 1);
    expect(removed.uploads).toBe(2);
    expect(await uploadStatus(open.id, me)).toBeNull();
    expect(await uploadStatus(done.id, me)).toBeNull();
    expect(await env.FILES.head(key)).toBeNull();
    expect(await uploadStatus(recent.id, me)).not.toBeNull();
  });
});

/** An item's file and thumbnail keys. */
async function itemKeys(id: number) {
  const row = await env.DB.prepare("SELECT file_key, thumbnail_key FROM content WHERE id = ?")
    .bind(id)
    .first<{ file_key: string; thumbnail_key: string }>();
  return [row?.file_key ?? "", row?.thumbnail_key ?? ""];
}

describe("files whose rows are gone", () => {
  it("are deleted by the cron when a deletion stopped between the database and R2", async () => {
    const owner = await newMember("Stopped");
    const id = await newItem(owner);
    const stored = await itemKeys(id);
    for (const key of stored) await env.FILES.put(key, "bytes");
    // R2 fails (or the isolate dies) right after the rows went.
    const failing = vi.spyOn(env.FILES, "delete").mockRejectedValue(new Error("R2 is down"));
    await expect(deleteContent(id, owner)).rejects.toThrow("R2 is down");
    failing.mockRestore();
    expect(await env.DB.prepare("SELECT 1 FROM content WHERE id = ?").bind(id).first()).toBeNull();
    for (const key of stored) expect(await env.FILES.head(key), key).not.toBeNull();

    const swept = await cleanUp(Date.now());
    expect(swept.objects).toBeGreaterThanOrEqual(2);
    for (const key of stored) expect(await env.FILES.head(key), key).toBeNull();
    expect(await count("SELECT count(*) AS n FROM object_deletions WHERE key IN (?, ?)", ...stored)).toBe(0);
  });

  it("leave nothing queued when the deletion goes through", async () => {
    const owner = await newMember("Clean");
    const id = await newItem(owner);
    const keys = await itemKeys(id);
    expect(await deleteContent(id, owner)).toBe(true);
    expect(await count("SELECT count(*) AS n FROM object_deletions WHERE key IN (?, ?)", ...keys)).toBe(0);
  });
});

describe("open uploads", () => {
  it(`are at most ${MAX_OPEN_UPLOADS} per member, even when more start at once`, async () => {
    const me = await newMember("Eager");
    const results = await Promise.allSettled(Array.from({ length: 8 }, () => startUpload(me, 1000, Date.now())));
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(MAX_OPEN_UPLOADS);
    for (const r of results.filter((r) => r.status === "rejected"))
      expect((r as PromiseRejectedResult).reason).toMatchObject({ reason: "too-many" });
    expect(await count("SELECT count(*) AS n FROM uploads WHERE owner_id = ?", me)).toBe(MAX_OPEN_UPLOADS);
  });
});
