import { MAX_VIEW_URL_ENCODED, MAX_VISITED_VIEWS } from "./config";
import { findMeta, MAIN_ROUTES, metaTrail, type RouteMeta } from "./route-meta";

/** A tab in the tags bar: the page's path, and the full path (with query) it was last seen at. */
export interface VisitedView {
  path: string;
  fullPath: string;
}

function affixViews(routes: RouteMeta[] = MAIN_ROUTES): VisitedView[] {
  return routes.flatMap((route) => [
    ...(route.affix ? [{ path: route.path, fullPath: route.path }] : []),
    ...affixViews(route.children ?? []),
  ]);
}

export function isAffix(path: string): boolean {
  return Boolean(findMeta(path)?.affix);
}

/** Affixed tabs first, always; then the rest in visiting order. */
function withAffix(views: VisitedView[]): VisitedView[] {
  const affix = affixViews().map((a) => views.find((v) => v.path === a.path) ?? a);
  return [...affix, ...views.filter((v) => !isAffix(v.path))];
}

/** A view for an address: its page path, and the address itself unless that is too long to keep. */
function viewOf(address: string): VisitedView {
  const path = address.split(/[?#]/)[0] ?? address;
  return { path, fullPath: encodeURIComponent(address).length > MAX_VIEW_URL_ENCODED ? path : address };
}

export function addView(views: VisitedView[], address: string, max = MAX_VISITED_VIEWS): VisitedView[] {
  const { path, fullPath } = viewOf(address);
  const known = views.some((v) => v.path === path);
  const next = known ? views.map((v) => (v.path === path ? { path, fullPath } : v)) : [...views, { path, fullPath }];
  const all = withAffix(next);
  // Over the limit, the oldest closable tab goes first.
  while (all.length > max) {
    const oldest = all.findIndex((v) => !isAffix(v.path) && v.path !== path);
    if (oldest < 0) break;
    all.splice(oldest, 1);
  }
  return all;
}

export function closeView(views: VisitedView[], path: string): VisitedView[] {
  return isAffix(path) ? withAffix(views) : withAffix(views.filter((v) => v.path !== path));
}

export function closeOtherViews(views: VisitedView[], path: string): VisitedView[] {
  return withAffix(views.filter((v) => v.path === path));
}

/** Only the affixed tabs survive "close all". */
export function closeAllViews(): VisitedView[] {
  return withAffix([]);
}

/** Where to go after closing tabs: stay, unless the current page's tab is gone; then the last tab, or the root. */
export function afterClose(remaining: VisitedView[], currentPath: string, currentFullPath: string): string {
  if (remaining.some((v) => v.path === currentPath)) return currentFullPath;
  return remaining.at(-1)?.fullPath ?? "/";
}

/** Tabs kept in a cookie so the bar works without JavaScript; anything malformed is dropped. */
export function parseViews(raw: string | undefined): VisitedView[] {
  if (!raw) return withAffix([]);
  try {
    const list: unknown = JSON.parse(raw);
    if (!Array.isArray(list)) return withAffix([]);
    const views = list
      .filter((p): p is string => typeof p === "string" && p.startsWith("/") && !p.startsWith("//"))
      .map(viewOf)
      .filter((v) => encodeURIComponent(v.path).length <= MAX_VIEW_URL_ENCODED && metaTrail(v.path).length > 0);
    return withAffix(views).slice(0, MAX_VISITED_VIEWS);
  } catch {
    return withAffix([]);
  }
}

export function serializeViews(views: VisitedView[]): string {
  return JSON.stringify(views.map((v) => v.fullPath));
}
