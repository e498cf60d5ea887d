import { env } from "~/.server/bindings";
import { config } from "~/.server/config/config";
import { OPEN_RECORD } from "~/.server/content/open-records";
import { askedLanguage, languageOf } from "~/.server/web/i18n/request-language";
import { LANGUAGE_PARAM } from "~/lib/i18n";

// Open records at the edge (decision 0049): a record's page and its metadata are the same for every
// anonymous reader of a language, so each data centre keeps what it rendered. The key holds the
// item's last change, so an edit, a closing or a deletion reaches every data centre at once (the
// next reader asks under a new key, or finds the record closed and is sent to sign in) without a
// purge call; what changes outside the item (its owner's name) shows within EDGE_SECONDS.

/** How long a data centre keeps a rendered record, for what changes outside its item. */
export const EDGE_SECONDS = 600;

const RECORD_PATH = /^\/records\/(\d+)\/(?:citation\.(?:bib|ris|json)|linkset)?$/;

/** The record an anonymous GET asks for, when it may come from the edge; null for anything else. */
function cacheableRecord(request: Request): number | null {
  const url = new URL(request.url);
  const match = RECORD_PATH.exec(url.pathname);
  // Only the address itself, or one naming its language version and nothing else (decision 0050).
  const version = askedLanguage(request);
  if (request.method !== "GET" || !match || (url.search && (!version || url.search !== `?${LANGUAGE_PARAM}=${version}`))) return null;
  // A member's page carries their session's state, and a notice is for one reader.
  if (/(?:^|;\s*)(?:token|flash)=/.test(request.headers.get("Cookie") ?? "")) return null;
  return Number(match[1]);
}

/**
 * The answer to `request`: from this data centre's cache when it holds the record's current page in
 * the reader's language, else from `render`, kept when it is a plain 200. A page is kept with the
 * nonce it was rendered with, which a reader from the cache never gets: theirs replaces it.
 */
export async function fromEdge(request: Request, nonce: string, render: () => Promise<Response>): Promise<Response> {
  const id = cacheableRecord(request);
  if (id === null || !config().openRecords) return render();
  const version = await env.DB.prepare(`SELECT updated_at FROM content WHERE id = ? AND ${OPEN_RECORD("")}`)
    .bind(id)
    .first<number>("updated_at");
  if (version === null) return render();
  const url = new URL(request.url);
  const key = new Request(`${url.origin}${url.pathname}?version=${version}&lang=${languageOf(request)}`);
  // Workers' own cache of this data centre (the DOM's types, which the pages need, do not name it).
  const cache = (caches as unknown as { default: Cache }).default;
  const kept = await cache.match(key);
  if (kept) return withNonce(served(kept), nonce);
  const response = await render();
  if (response.status !== 200 || response.headers.has("Set-Cookie")) return response;
  const copy = new Response(response.clone().body, response);
  copy.headers.set("X-Page-Cache-Control", response.headers.get("Cache-Control") ?? "");
  copy.headers.set("Cache-Control", `public, max-age=${EDGE_SECONDS}`);
  await cache.put(key, copy);
  return response;
}

/** A kept answer as the page first went out: its own Cache-Control, not the edge's, and no timings of that render. */
function served(kept: Response) {
  const answer = new Response(kept.body, kept);
  answer.headers.delete("Server-Timing");
  const own = answer.headers.get("X-Page-Cache-Control");
  answer.headers.delete("X-Page-Cache-Control");
  if (own) answer.headers.set("Cache-Control", own);
  else answer.headers.delete("Cache-Control");
  return answer;
}

function withNonce(answer: Response, nonce: string) {
  if (!answer.headers.get("Content-Type")?.startsWith("text/html")) return answer;
  return new HTMLRewriter()
    .on("[nonce]", {
      element(element) {
        element.setAttribute("nonce", nonce);
      },
    })
    .transform(answer);
}
