import type { Translation } from "#locales/en/translation";

export type TitleKey = keyof Translation["route"];
export type IconName = "home" | "discovery" | "retrieval" | "meeting" | "message" | "upload" | "personal" | "moderation" | "link";

/** The spec's route metadata (title, icon, hidden, affix, activeMenu, noCache, roles). */
export interface RouteMeta {
  path: string;
  title: TitleKey;
  icon?: IconName;
  hidden?: boolean;
  /** Affixed tabs cannot be closed. */
  affix?: boolean;
  /** The menu entry to highlight while this hidden page is open. */
  activeMenu?: string;
  noCache?: boolean;
  /** Empty or absent: open to every member (spec section 6 shows no role values). */
  roles?: string[];
  /** Menu badge fed by the layout loader. */
  badge?: "unread";
  children?: RouteMeta[];
}

/** The main layout's routes, in menu order (spec section 2). */
export const MAIN_ROUTES: RouteMeta[] = [
  {
    path: "/home",
    title: "home",
    icon: "home",
    affix: true,
    children: [
      { path: "/home/recommendList", title: "recommendList", hidden: true, activeMenu: "/home" },
      { path: "/home/rankingList", title: "rankingList", hidden: true, activeMenu: "/home" },
    ],
  },
  { path: "/discovery", title: "discovery", icon: "discovery" },
  {
    path: "/retrieval",
    title: "retrieval",
    icon: "retrieval",
    children: [
      { path: "/retrieval/detail", title: "retrievalDetail", hidden: true, activeMenu: "/retrieval" },
      { path: "/retrieval/detail/captions", title: "retrievalCaptions", hidden: true, activeMenu: "/retrieval" },
      { path: "/retrieval/detail/version", title: "retrievalVersion", hidden: true, activeMenu: "/retrieval" },
      { path: "/retrieval/detail/edit", title: "retrievalEdit", hidden: true, activeMenu: "/retrieval" },
      { path: "/retrieval/detail/stats", title: "retrievalStats", hidden: true, activeMenu: "/retrieval" },
    ],
  },
  {
    path: "/liveStreaming",
    title: "liveStreaming",
    icon: "meeting",
    children: [{ path: "/liveStreaming/join", title: "join", hidden: true, activeMenu: "/liveStreaming" }],
  },
  { path: "/message", title: "message", icon: "message", badge: "unread" },
  { path: "/upload", title: "upload", icon: "upload" },
  { path: "/moderation", title: "moderation", icon: "moderation", roles: ["moderator"] },
  { path: "/review", title: "review", icon: "moderation", roles: ["reviewer"], noCache: true },
  {
    path: "/personal",
    // The member page is the spec's "Space" (section 1): its title and breadcrumb say so.
    title: "space",
    icon: "personal",
    hidden: true,
    children: [
      // Personal data (address, birthday, ID numbers): never stored by the browser either.
      { path: "/personal/Setting", title: "setting", hidden: true, noCache: true },
      { path: "/personal/verification", title: "verification", hidden: true, noCache: true },
      { path: "/personal/ranking", title: "ranking", hidden: true },
      { path: "/personal/stats", title: "stats", hidden: true },
      { path: "/personal/notifications", title: "notifications", hidden: true },
    ],
  },
];

/** Public pages outside the layout: they only need a title. */
export const PUBLIC_ROUTES: RouteMeta[] = [
  { path: "/login", title: "login", hidden: true, noCache: true },
  { path: "/signup", title: "signup", hidden: true, noCache: true },
  { path: "/signup/individual", title: "signupIndividual", hidden: true, noCache: true },
  { path: "/signup/facilitator", title: "signupFacilitator", hidden: true, noCache: true },
  { path: "/forgetPassword", title: "forgetPassword", hidden: true, noCache: true },
  { path: "/logout", title: "logout", hidden: true, noCache: true },
  ...(__LOCAL_BUILD__ ? [{ path: "/dev/mail", title: "devMail", hidden: true, noCache: true } satisfies RouteMeta] : []),
  { path: "/401", title: "page401", hidden: true },
  { path: "/404", title: "page404", hidden: true },
  { path: "/offline", title: "offline", hidden: true },
  { path: "/unsubscribe", title: "unsubscribe", hidden: true, noCache: true },
  { path: "/notifications/unsubscribe", title: "unsubscribe", hidden: true, noCache: true },
];

/** The chain of metadata from the top-level route down to the one for `pathname`. */
export function metaTrail(pathname: string, routes: RouteMeta[] = MAIN_ROUTES): RouteMeta[] {
  for (const route of routes) {
    if (route.path === pathname) return [route];
    if (route.children && pathname.startsWith(`${route.path}/`)) {
      const below = metaTrail(pathname, route.children);
      if (below.length) return [route, ...below];
    }
  }
  return [];
}

export function findMeta(pathname: string): RouteMeta | undefined {
  return metaTrail(pathname).at(-1) ?? PUBLIC_ROUTES.find((route) => route.path === pathname);
}

export function isExternal(path: string): boolean {
  return /^(https?:|mailto:|tel:)/.test(path);
}
