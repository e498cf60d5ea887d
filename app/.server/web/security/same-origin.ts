import { isPrefetch } from "~/.server/web/shell/prefetch";

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

/** The one-click unsubscribe links (RFC 8058), each with the query parameter that carries its signature. */
const ONE_CLICK_SIGNATURE: ReadonlyMap<string, string> = new Map([
  ["/notifications/unsubscribe", "t"],
  ["/unsubscribe", "token"],
]);

/**
 * A one-click unsubscribe: a POST to a signed unsubscribe link, which a mail provider sends from its
 * own origin (some from a browser). The link's signature is the authority there, not a session (the
 * pages use none), so another site's Origin proves nothing against it; the page still checks the
 * signature and refuses a wrong one with 400.
 */
export function isOneClickUnsubscribe(request: Request): boolean {
  if (request.method !== "POST") return false;
  const url = new URL(request.url);
  const signature = ONE_CLICK_SIGNATURE.get(url.pathname);
  return signature !== undefined && url.searchParams.has(signature);
}

/**
 * Refuses state-changing requests sent by another site: the browser's Sec-Fetch-Site, or failing
 * that the Origin header, must say the request came from this origin. Requests with neither
 * (non-browser clients) carry no ambient cookies worth forging and pass, and so does a one-click
 * unsubscribe (above). The API has its own rule (api/serve.ts).
 */
export function isCrossSiteWrite(request: Request): boolean {
  if (SAFE_METHODS.has(request.method) || isOneClickUnsubscribe(request)) return false;
  const site = request.headers.get("Sec-Fetch-Site");
  if (site) return site !== "same-origin" && site !== "none";
  const origin = request.headers.get("Origin");
  if (!origin) return false;
  return origin !== new URL(request.url).origin;
}

/**
 * Whether a page request came from this site or from the member themselves (typed, bookmarked):
 * GET pages that also record something (the search history, a conversation read) record it only
 * then, so another site's link cannot write into a member's account. Browsers without
 * Sec-Fetch-Site count as same-site. A prefetch is not a visit (below).
 */
export function isOwnNavigation(request: Request): boolean {
  const site = request.headers.get("Sec-Fetch-Site");
  return (site === null || site === "same-origin" || site === "none") && !isPrefetch(request);
}
