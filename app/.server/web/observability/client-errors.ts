import { z } from "zod";
import { readCapped } from "~/.server/http/body";
import { logEvent } from "~/.server/observability/log";
import { allowRequest, clientAddress } from "~/.server/security/rate-limit";
import { CLIENT_ERROR_MAX_BYTES } from "~/lib/client-errors";

const report = z.object({
  kind: z.enum(["error", "rejection", "boundary"]),
  name: z.string().max(100).default("Error"),
  message: z.string().max(1000),
  stack: z.string().max(4000).optional(),
  page: z.string().max(500),
});

/**
 * Removes what must not reach a log: query strings and fragments of addresses, email addresses,
 * bearer tokens and long random-looking strings (session tokens, codes in links).
 */
export function scrub(text: string): string {
  return text
    .replace(/([a-z][\w+.-]*:\/\/[^\s?#"'`)]*|\/[^\s?#"'`)]*)[?#][^\s"'`)]*/gi, "$1")
    .replace(/[^\s@"'<>()`]+@[^\s@"'<>()`]+\.[a-z]{2,}/gi, "[email]")
    .replace(/\b(Bearer|token|access_token)([\s=:"]+)[\w.~+/-]+/gi, "$1$2[token]")
    .replace(/[A-Za-z0-9_-]{32,}/g, "[token]");
}

const answer = (status: number) => new Response(null, { status, headers: { "Cache-Control": "no-store" } });

/** POST CLIENT_ERROR_PATH: one small JSON report -> one structured, scrubbed log line. Answers 204. */
export async function receiveClientError(request: Request, limiter: RateLimit, requestId: string): Promise<Response> {
  if (request.method !== "POST") return new Response(null, { status: 405, headers: { Allow: "POST" } });
  if (!(await allowRequest(limiter, clientAddress(request)))) return answer(429);
  const text = await readCapped(request, CLIENT_ERROR_MAX_BYTES);
  if (text === null) return answer(413);
  let parsed: ReturnType<typeof report.safeParse>;
  try {
    parsed = report.safeParse(JSON.parse(text));
  } catch {
    return answer(400);
  }
  if (!parsed.success) return answer(400);
  const { kind, name, message, stack, page } = parsed.data;
  logEvent("error", "client.error", {
    request_id: requestId,
    kind,
    name: scrub(name),
    message: scrub(message),
    stack: stack === undefined ? undefined : scrub(stack),
    page: scrub(page),
    // Sent by the client like the rest: a token or an address in it must not reach the log either.
    user_agent: scrub(request.headers.get("User-Agent") ?? "").slice(0, 200),
  });
  return answer(204);
}
