const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

/**
 * Refuses state-changing requests sent by another site: the browser's Sec-Fetch-Site, or failing
 * that the Origin header, must say the request came from this origin. Requests with neither
 * (non-browser clients) carry no ambient cookies worth forging and pass. The API has its own rule (api/serve.ts).
 */
export function isCrossSiteWrite(request: Request): boolean {
  if (SAFE_METHODS.has(request.method)) return false;
  const site = request.headers.get("Sec-Fetch-Site");
  if (site) return site !== "same-origin" && site !== "none";
  const origin = request.headers.get("Origin");
  if (!origin) return false;
  return origin !== new URL(request.url).origin;
}

/**
 * Whether a page request came from this site or from the member themselves (typed, bookmarked):
 * GET pages that also record something (the search history) record it only then, so another site's
 * link cannot write into a member's account. Browsers without Sec-Fetch-Site count as same-site.
 */
export function isOwnNavigation(request: Request): boolean {
  const site = request.headers.get("Sec-Fetch-Site");
  return site === null || site === "same-origin" || site === "none";
}
