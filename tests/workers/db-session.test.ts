import { env as raw } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { env } from "~/.server/bindings";
import { withDbSession } from "~/.server/db-session";

const request = (cookie?: string) => new Request("https://app.test/home", cookie ? { headers: { Cookie: cookie } } : {});
const bookmarkOf = (response: Response) => /(?:^|\s)d1b=([^;]+)/.exec(response.headers.get("Set-Cookie") ?? "")?.[1];

describe("D1 sessions per request", () => {
  it("queries through a session inside a request, and the plain binding outside", async () => {
    let inside: unknown;
    await withDbSession(request(), async () => {
      inside = env.DB;
      return new Response("ok");
    });
    expect(inside).not.toBe(raw.DB);
    expect("withSession" in (inside as object)).toBe(false);
    expect(env.DB).toBe(raw.DB);
  });

  it("hands the bookmark back in a cookie after a write, and starts the next request from it", async () => {
    const wrote = await withDbSession(request(), async () => {
      await env.DB.prepare("INSERT INTO cron_runs (cron, scheduled_at, finished_at) VALUES ('session-test', 1, 1)").run();
      return new Response("ok");
    });
    const bookmark = bookmarkOf(wrote);
    expect(bookmark).toMatch(/^[\w-]+$/);
    expect(wrote.headers.get("Set-Cookie")).toContain("HttpOnly");

    const read = await withDbSession(request(`d1b=${bookmark}`), async () => {
      const row = await env.DB.prepare("SELECT count(*) AS n FROM cron_runs WHERE cron = 'session-test'").first<{ n: number }>();
      return Response.json(row);
    });
    expect(await read.json()).toEqual({ n: 1 });
    // Bookmarks sort in time order: the next one is never older than the one the request began at.
    expect((bookmarkOf(read) ?? String(bookmark)) >= String(bookmark)).toBe(true);
  });

  it("ignores a bookmark cookie that is not one", async () => {
    const response = await withDbSession(request("d1b=%3Cscript%3E"), async () => {
      await env.DB.prepare("SELECT 1").first();
      return new Response("ok");
    });
    expect(response.status).toBe(200);
  });
});

describe("Server-Timing", () => {
  it("reports the time a request spent in D1 and its round trips, batches and bound statements included", async () => {
    const response = await withDbSession(request(), async () => {
      const statement = env.DB.prepare("SELECT ? AS n").bind(1);
      await statement.first();
      await env.DB.batch([env.DB.prepare("SELECT 1"), statement]);
      return new Response("ok");
    });
    const timing = /db;dur=([\d.]+);desc="D1 (\d+) trips (\d+) statements"/.exec(response.headers.get("Server-Timing") ?? "");
    expect(timing).not.toBeNull();
    expect(Number(timing?.[1])).toBeGreaterThanOrEqual(0);
    // The statement alone, then the batch of two: two round trips, three statements.
    expect([timing?.[2], timing?.[3]]).toEqual(["2", "3"]);
  });
});
