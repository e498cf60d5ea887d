import { type IconName, isExternal, MAIN_ROUTES, type RouteMeta, type TitleKey } from "./route-meta";

export interface MenuItem {
  path: string;
  title: TitleKey;
  icon?: IconName;
  external: boolean;
  badge?: RouteMeta["badge"];
  children?: MenuItem[];
}

/**
 * The sidebar's rules: hidden routes are not shown, and a route with exactly one visible child shows
 * that child in its place; with no visible child the route is a plain item; with more, a submenu.
 */
export function buildMenu(routes: RouteMeta[] = MAIN_ROUTES, roles: readonly string[] = []): MenuItem[] {
  return routes.filter((route) => !route.hidden && mayOpen(route, roles)).map((route) => toItem(route, roles));
}

/** Spec section 6: a route with no roles is open to every member, otherwise one must match. */
export const mayOpen = (route: Pick<RouteMeta, "roles">, roles: readonly string[]) =>
  !route.roles || route.roles.length === 0 || route.roles.some((role) => roles.includes(role));

function toItem(route: RouteMeta, roles: readonly string[]): MenuItem {
  const visible = (route.children ?? []).filter((child) => !child.hidden && mayOpen(child, roles));
  const only = visible.length === 1 ? visible[0] : undefined;
  if (only) return { ...toItem(only, roles), icon: only.icon ?? route.icon };
  return {
    path: route.path,
    title: route.title,
    icon: route.icon,
    external: isExternal(route.path),
    badge: route.badge,
    children: visible.length > 1 ? visible.map((child) => toItem(child, roles)) : undefined,
  };
}

/** The menu path to highlight for a page: its own, or the activeMenu of a hidden page. */
export function activeMenuPath(trail: RouteMeta[]): string | undefined {
  const page = trail.at(-1);
  if (!page) return undefined;
  if (page.activeMenu) return page.activeMenu;
  return page.path;
}
