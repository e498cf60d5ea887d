import { useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { Link, Outlet, useLocation, useNavigation, useRevalidator } from "react-router";
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
import { useDrafts } from "~/lib/use-drafts";
import { useLiveUnread } from "~/lib/use-live-unread";
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

export default function MainLayout({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const location = useLocation();
  const navigation = useNavigation();
  const trail = metaTrail(location.pathname);
  const page = trail.at(-1);
  const [mobileMenuOpen, setMobileMenuOpen] = useState(loaderData.mobileMenuOpen);
  const revalidator = useRevalidator();
  const main = useRef<HTMLElement>(null);
  useDrafts(main, `${loaderData.userId}:${location.pathname}${location.search}`, !findMeta(location.pathname)?.noCache);
  // On /message a new message anywhere refreshes the conversation list (last message, counts).
  const unread = useLiveUnread(loaderData.unread, () => {
    if (location.pathname === "/message") revalidator.revalidate();
  });

  // On mobile the menu closes on every route change (spec: layout behaviour).
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs on navigation only
  useEffect(() => setMobileMenuOpen(false), [location.pathname]);

  // Optimistic: the sidebar follows the hamburger's post before the server answers.
  const pending = navigation.formAction === "/shell/sidebar" ? navigation.formData?.get("open") : null;
  const sidebarOpen = pending ? pending === "1" : loaderData.sidebarOpen;

  return (
    <div className="app-wrapper" data-sidebar={sidebarOpen ? "open" : "closed"} data-mobile-menu={mobileMenuOpen ? "open" : "closed"}>
      <Sidebar activePath={activeMenuPath(trail)} unread={unread.total} items={buildMenu(MAIN_ROUTES, loaderData.roles)} />
      <Link
        to={location.pathname + location.search}
        className="drawer-bg"
        aria-label={t("navbar.closeMenu")}
        data-testid="drawer-bg"
        onClick={(event) => {
          event.preventDefault();
          setMobileMenuOpen(false);
        }}
      />
      <div className="main-container">
        <Navbar
          trail={trail}
          notifications={unread.notifications}
          sidebarOpen={sidebarOpen}
          mobileMenuOpen={mobileMenuOpen}
          onMobileToggle={() => setMobileMenuOpen((open) => !open)}
        />
        <TagsBar views={loaderData.views} />
        <main ref={main} className="p-4 sm:p-6">
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
