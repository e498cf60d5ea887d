/** The modules in app/enhance, each bundled whole for the pages that name it (scripts/vite-enhance.ts). */
export const ENHANCE_MODULES = ["shell", "item", "lists", "meetings", "uploads", "avatar", "conversation"] as const;
export type EnhanceModule = (typeof ENHANCE_MODULES)[number];
type PageModules = Exclude<EnhanceModule, "shell">[];

/**
 * What a route's `handle` says about the script its page ships (docs/decisions/0046). React renders
 * every page on the server; by default the page does not hydrate and runs the shell module only.
 */
export interface PageHandle {
  /** React hydrates the page, where React in the browser earns its cost (none does now: docs/decisions/0047). */
  hydrate?: true;
  /** The page's own small modules, run before the shell; by its query where one route is several pages (settings). */
  modules?: PageModules | ((query: URLSearchParams) => PageModules);
  /** Nothing at all, not even the shell: a page no script improves (it is interactive as it arrives). */
  scripts?: false;
  /** The page writes its own description (an open record's abstract), so the site's tagline stays out of its head. */
  describes?: true;
}

/** The script a page ships, from its matched routes' handles and its query. */
export function pageScript(handles: unknown[], query = new URLSearchParams()) {
  const pages = handles.map((handle) => (handle ?? {}) as PageHandle);
  const scripts = !pages.some((page) => page.scripts === false);
  const hydrate = scripts && pages.some((page) => page.hydrate);
  const own = pages.flatMap(({ modules = [] }) => (typeof modules === "function" ? modules(query) : modules));
  const modules: EnhanceModule[] = scripts ? [...new Set(own), "shell"] : [];
  return { hydrate, modules };
}
