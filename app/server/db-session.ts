import { env } from "cloudflare:workers";
import { AsyncLocalStorage } from "node:async_hooks";
import { readCookie, serializeCookie } from "./http/cookies";

// D1's Sessions API per request (DESIGN.md, "Serving members far from the data"): reads may go to
// the nearest read replica, and the session's bookmark travels in a cookie so that a member's next
// request reads at least what their last one wrote.

const BOOKMARK_COOKIE = "d1b";
const BOOKMARK_PATTERN = /^[\w-]{1,200}$/;
const BOOKMARK_MAX_AGE = 60 * 60; // long enough to cover a visit; after that any replica has caught up

const sessions = new AsyncLocalStorage<D1DatabaseSession>();

/** The D1 handle for the current request: its session, or the plain binding outside a request. */
export function currentDb(): D1Database {
  // Services only use prepare() and batch(), which a session has too.
  return (sessions.getStore() ?? env.DB) as unknown as D1Database;
}

/** Runs `handle` with a D1 session that starts at the request's bookmark, and hands the new one back. */
export async function withDbSession(request: Request, handle: () => Promise<Response>): Promise<Response> {
  const incoming = readCookie(request, BOOKMARK_COOKIE);
  const start = incoming && BOOKMARK_PATTERN.test(incoming) ? incoming : "first-unconstrained";
  const session = env.DB.withSession(start);
  const response = await sessions.run(session, handle);
  const bookmark = session.getBookmark();
  if (!bookmark || bookmark === incoming || response.status === 101) return response;
  const answer = new Response(response.body, response);
  answer.headers.append("Set-Cookie", serializeCookie(request, BOOKMARK_COOKIE, bookmark, { maxAge: BOOKMARK_MAX_AGE }));
  return answer;
}
