import type { MiddlewareFunction } from "react-router";

// Prefetching on intent (docs/decisions/0046): pages carry Speculation Rules, so the browser may
// fetch a page while the pointer rests on its link. Such a request is not a visit; and what a member
// changes makes the pages fetched ahead out of date.

/**
 * The browser fetching a page a member may open next: nothing a visit records is recorded (a view,
 * a tab, the search history, a conversation read). If the member opens it, the shell module asks
 * for the page once more, as a visit.
 */
export function isPrefetch(request: Request): boolean {
  return request.headers.get("Sec-Purpose")?.includes("prefetch") ?? false;
}

/** A change (any post) drops the pages the browser fetched ahead: they show the state before it. */
export const prefetchMiddleware: MiddlewareFunction<Response> = async ({ request }, next) => {
  const response = await next();
  if (request.method !== "GET" && request.method !== "HEAD") response.headers.set("Clear-Site-Data", '"prefetchCache"');
  return response;
};
