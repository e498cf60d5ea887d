import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { CRON_LOG_DAYS, runScheduled } from "~/.server/cron/scheduled";
import { allowRequest } from "~/.server/security/rate-limit";
import { newFileKey } from "~/.server/storage/files";
import { until } from "./helpers";

describe("D1 with migrations applied", () => {
  it("has the foundation's tables", async () => {
    const { results } = await env.DB.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name = 'cron_runs'").all();
    expect(results).toHaveLength(1);
  });
});

describe("the scheduled handler", () => {
  it("records each run and prunes runs older than the log window", async () => {
    const now = Date.UTC(2026, 10, 22, 3, 0);
    const old = now - (CRON_LOG_DAYS + 1) * 86_400_000;
    await env.DB.prepare("INSERT INTO cron_runs (cron, scheduled_at, finished_at) VALUES ('old', ?, ?)").bind(old, old).run();

    const result = await runScheduled({ cron: "*/15 * * * *", scheduledTime: now }, now);

    expect(result.pruned).toBe(1);
    const rows = await env.DB.prepare("SELECT cron, scheduled_at FROM cron_runs WHERE cron <> 'cleanup' ORDER BY id").all();
    expect(rows.results).toEqual([{ cron: "*/15 * * * *", scheduled_at: now }]);
    // The queued jobs: the cleanup records itself when done, the score run is published (and no job outlives the test).
    await until(() => env.DB.prepare("SELECT 1 AS done FROM cron_runs WHERE cron = 'cleanup' AND scheduled_at = ?").bind(now).first());
    await until(
      async () => (await env.DB.prepare("SELECT published_at FROM score_runs WHERE id = ?").bind(result.run).first())?.published_at,
    );
  });
});

describe("R2 file storage", () => {
  it("stores a stream of known length under a server-chosen key and reads back a byte range", async () => {
    const key = newFileKey("files", new Date("2026-11-22T00:00:00Z"));
    expect(key).toMatch(/^files\/2026-11\/[0-9a-f-]{36}$/);
    const bytes = new TextEncoder().encode("%PDF-1.7 hello world");
    await env.FILES.put(key, new Blob([bytes]).stream() as ReadableStream, { httpMetadata: { contentType: "application/pdf" } });
    const part = await env.FILES.get(key, { range: { offset: 9, length: 5 } });
    expect(part?.httpMetadata?.contentType).toBe("application/pdf");
    expect(part?.size).toBe(bytes.length);
    expect(await new Response(part?.body).text()).toBe("hello");
    await env.FILES.delete(key);
    expect(await env.FILES.get(key)).toBeNull();
  });
});

describe("the rate-limiting binding", () => {
  it("refuses a key once its limit in the period is used up, and keeps other keys apart", async () => {
    const key = `test-${crypto.randomUUID()}`;
    const answers: boolean[] = [];
    for (let i = 0; i < 12; i++) answers.push(await allowRequest(env.AUTH_LIMITER, key));
    expect(answers.slice(0, 10).every(Boolean)).toBe(true);
    expect(answers.slice(10)).toEqual([false, false]);
    expect(await allowRequest(env.AUTH_LIMITER, `${key}-other`)).toBe(true);
  });
});
