import { env } from "cloudflare:workers";
import { afterEach, describe, expect, it, vi } from "vitest";
import { receiveClientError, scrub } from "~/.server/web/observability/client-errors";
import { CLIENT_ERROR_MAX_BYTES, CLIENT_ERROR_PATH } from "~/lib/client-errors";

const allowAll = { limit: async () => ({ success: true }) } as RateLimit;
const post = (body: string, headers: Record<string, string> = {}) =>
  new Request(`http://127.0.0.1${CLIENT_ERROR_PATH}`, { method: "POST", body, headers: { "Content-Type": "text/plain", ...headers } });
const report = (fields: Record<string, unknown> = {}) =>
  JSON.stringify({
    kind: "error",
    name: "TypeError",
    message: "x is undefined",
    stack: "at /assets/home.js:1:2",
    page: "/home",
    ...fields,
  });

afterEach(() => vi.restoreAllMocks());

describe("the frontend error log", () => {
  it("writes one structured JSON line per report, scrubbed of tokens, emails and query strings", async () => {
    const lines: string[] = [];
    vi.spyOn(console, "error").mockImplementation((line: string) => lines.push(line));
    const token = "A".repeat(43);
    const response = await receiveClientError(
      post(
        report({
          message: `failed https://app.example/retrieval?q=private#top for ada@example.org with Bearer ${token}`,
          stack: `at https://app.example/assets/a.js:1:2\nat fetch /api/users/1?token=${token}#x`,
        }),
        { "User-Agent": `Chromium (ada@example.org; Bearer ${token})` },
      ),
      allowAll,
      "req-1",
    );
    expect(response.status).toBe(204);
    expect(lines).toHaveLength(1);
    const entry = JSON.parse(lines[0] ?? "{}");
    expect(entry).toMatchObject({
      level: "error",
      event: "client.error",
      request_id: "req-1",
      kind: "error",
      page: "/home",
      user_agent: "Chromium ([email]; Bearer [token])",
    });
    expect(entry.message).toBe("failed https://app.example/retrieval for [email] with Bearer [token]");
    expect(entry.stack).toBe("at https://app.example/assets/a.js:1:2\nat fetch /api/users/1");
    expect(lines[0]).not.toContain(token);
  });

  it("refuses big bodies before reading them, and while reading them when the length is not given", async () => {
    const log = vi.spyOn(console, "error").mockImplementation(() => {});
    const big = report({ stack: "x".repeat(CLIENT_ERROR_MAX_BYTES) });
    expect((await receiveClientError(post(big), allowAll, "r")).status).toBe(413);
    const stream = new Blob([big]).stream();
    const chunked = new Request(`http://127.0.0.1${CLIENT_ERROR_PATH}`, { method: "POST", body: stream, duplex: "half" } as RequestInit);
    expect((await receiveClientError(chunked, allowAll, "r")).status).toBe(413);
    expect(log).not.toHaveBeenCalled();
  });

  it("refuses what is not a report, other methods, and clients over the limit", async () => {
    const log = vi.spyOn(console, "error").mockImplementation(() => {});
    expect((await receiveClientError(post("not json"), allowAll, "r")).status).toBe(400);
    expect((await receiveClientError(post(report({ kind: "other" })), allowAll, "r")).status).toBe(400);
    expect((await receiveClientError(new Request(`http://127.0.0.1${CLIENT_ERROR_PATH}`), allowAll, "r")).status).toBe(405);
    let answers = 0;
    for (let i = 0; i < 25; i++) {
      const status = (await receiveClientError(post(report()), env.CLIENT_ERROR_LIMITER, "r")).status;
      if (status === 429) break;
      answers += 1;
    }
    // The binding allows 20 a minute per client address (wrangler.toml).
    expect(answers).toBe(20);
    expect(log).toHaveBeenCalledTimes(20);
  });

  it("leaves ordinary text alone", () => {
    expect(scrub("Cannot read properties of undefined (reading 'id')")).toBe("Cannot read properties of undefined (reading 'id')");
  });
});
