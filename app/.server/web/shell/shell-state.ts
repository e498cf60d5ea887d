import { createContext, type MiddlewareFunction } from "react-router";
import { clearCookie, ONE_YEAR, readCookie, serializeCookie } from "~/.server/http/cookies";
import { isPrefetch } from "~/.server/web/shell/prefetch";
import { DEFAULT_SIZE, isSize, SIZE_COOKIE, type Size } from "~/lib/display-size";
import { metaTrail } from "~/lib/route-meta";
import { addView, parseViews, serializeViews, type VisitedView } from "~/lib/visited-views";

export const SIDEBAR_COOKIE = "sidebarStatus"; // the spec's "1" open / "0" closed
export const MOBILE_MENU_COOKIE = "sidebarMobile"; // one page view with the mobile menu open (no JS)
export const VIEWS_COOKIE = "tagsView";

export interface ShellState {
  sidebarOpen: boolean;
  mobileMenuOpen: boolean;
  views: VisitedView[];
}

export const shellContext = createContext<ShellState>({ sidebarOpen: true, mobileMenuOpen: false, views: [] });

/** The page density the member chose (the spec's "size"), medium unless the cookie says otherwise. */
export function readSize(request: Request): Size {
  const size = readCookie(request, SIZE_COOKIE);
  return isSize(size) ? size : DEFAULT_SIZE;
}

export function readShell(request: Request): ShellState {
  return {
    sidebarOpen: readCookie(request, SIDEBAR_COOKIE) !== "0",
    mobileMenuOpen: readCookie(request, MOBILE_MENU_COOKIE) === "1",
    views: parseViews(readCookie(request, VIEWS_COOKIE)),
  };
}

export function viewsCookie(request: Request, views: VisitedView[]): string {
  return serializeCookie(request, VIEWS_COOKIE, serializeViews(views), { maxAge: ONE_YEAR });
}

/** The page a request renders: data requests (".data", "_routes") name the same page. */
export function pageUrl(request: Request): URL {
  const url = new URL(request.url);
  url.pathname = url.pathname.replace(/\.data$/, "").replace(/\/_root$/, "/") || "/";
  url.searchParams.delete("_routes");
  return url;
}

/**
 * Reads the layout's state from cookies, records a visit to the page in the tags bar, and lets the
 * one-shot mobile menu close again on the next navigation, as the spec's layout does.
 */
export const shellMiddleware: MiddlewareFunction<Response> = async ({ request, context }, next) => {
  const state = readShell(request);
  const url = pageUrl(request);
  const shown = request.method === "GET" && metaTrail(url.pathname).length > 0;
  // A prefetched page shows its tab as it will be, but records it only when opened (isPrefetch).
  const isVisit = shown && !isPrefetch(request);
  const views = shown ? addView(state.views, url.pathname + url.search) : state.views;
  context.set(shellContext, { ...state, views });
  const response = await next();
  if (isVisit && response.status === 200 && serializeViews(views) !== serializeViews(state.views)) {
    response.headers.append("Set-Cookie", viewsCookie(request, views));
  }
  if (state.mobileMenuOpen && isVisit) {
    response.headers.append("Set-Cookie", clearCookie(request, MOBILE_MENU_COOKIE));
  }
  return response;
};
