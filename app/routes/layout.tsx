import { useTranslation } from "react-i18next";
import { Link, Outlet, useLocation } from "react-router";
import { unreadTotal } from "~/.server/messaging/conversations";
import { unreadNotifications } from "~/.server/notifications/unread";
import { requireUser, requireUserMiddleware } from "~/.server/web/auth/session";
import { shellContext, shellMiddleware } from "~/.server/web/shell/shell-state";
import { MenuIcon } from "~/components/menu-icon";
import { Navbar } from "~/components/navbar";
import { Sidebar } from "~/components/sidebar";
import { TagsBar } from "~/components/tags-bar";
import { activeMenuPath, buildMenu } from "~/lib/menu";
import { findMeta, MAIN_ROUTES, metaTrail } from "~/lib/route-meta";
import type { Route } from "./+types/layout";

// Every page of the layout is for members only (spec: 'Please log in to view contents').
export const middleware: Route.MiddlewareFunction[] = [requireUserMiddleware, shellMiddleware];

export async function loader({ request, context }: Route.LoaderArgs) {
  const user = requireUser(request, context);
  const [total, notifications] = await Promise.all([unreadTotal(user.id), unreadNotifications(user.id)]);
  return { ...context.get(shellContext), unread: { total, notifications }, roles: user.roles, userId: user.id };
}

// The tags bar is recorded on the server, so the layout reloads its data on every navigation.
export const shouldRevalidate = () => true;

/**
 * Plain markup: the shell module (app/enhance/shell.ts) gives it its behaviours on every page, hydrated
 * or not, and without JavaScript each control is a form post or a link the server answers.
 */
export default function MainLayout({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const location = useLocation();
  const trail = metaTrail(location.pathname);
  const page = trail.at(-1);
  const here = location.pathname + location.search;
  return (
    <div
      className="app-wrapper"
      data-sidebar={loaderData.sidebarOpen ? "open" : "closed"}
      data-mobile-menu={loaderData.mobileMenuOpen ? "open" : "closed"}
    >
      <Sidebar activePath={activeMenuPath(trail)} unread={loaderData.unread.total} items={buildMenu(MAIN_ROUTES, loaderData.roles)} />
      <Link to={here} className="drawer-bg" aria-label={t("navbar.closeMenu")} data-testid="drawer-bg" />
      <div className="main-container">
        <Navbar
          trail={trail}
          notifications={loaderData.unread.notifications}
          sidebarOpen={loaderData.sidebarOpen}
          mobileMenuOpen={loaderData.mobileMenuOpen}
        />
        <TagsBar views={loaderData.views} />
        {/* The shell keeps what is typed here for the tab (lib/drafts.ts), except on a noCache page. */}
        <main className="p-4 sm:p-6" data-drafts={findMeta(location.pathname)?.noCache ? undefined : loaderData.userId}>
          {page ? (
            <h1 className="mb-4 flex items-center gap-2 text-lg font-semibold" data-testid="section-title">
              <MenuIcon name={trail[0]?.icon} />
              {t(`route.${page.title}`)}
            </h1>
          ) : null}
          <Outlet />
        </main>
      </div>
    </div>
  );
}
