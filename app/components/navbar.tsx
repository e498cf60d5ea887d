import Bell from "lucide-react/icons/bell";
import LogOut from "lucide-react/icons/log-out";
import Menu from "lucide-react/icons/menu";
import { useTranslation } from "react-i18next";
import { Link, useLocation, useRouteLoaderData } from "react-router";
import { badgeText } from "~/lib/badge";
import { liveLabel } from "~/lib/live-label";
import type { RouteMeta } from "~/lib/route-meta";
import type { RootShellData } from "~/lib/shapes";
import { Avatar } from "./avatar";
import { Breadcrumb } from "./breadcrumb";
import { LanguageSwitcher } from "./language-switcher";
import { LoginButton } from "./login-button";
import { buttonVariants } from "./ui/button";

interface NavbarProps {
  trail: RouteMeta[];
  /** Unread notifications, for the bell (members only). */
  notifications?: number;
  sidebarOpen: boolean;
  mobileMenuOpen: boolean;
}

/**
 * The header: hamburger, breadcrumb, language switcher and the session button. The hamburger is a
 * form post (remembered in the sidebarStatus cookie); with JavaScript the shell module folds the sidebar
 * in place, opens the phone's menu over the page and asks before logging out (app/enhance/shell.ts).
 */
export function Navbar({ trail, notifications = 0, sidebarOpen, mobileMenuOpen }: NavbarProps) {
  const { t, i18n } = useTranslation();
  const location = useLocation();
  const here = location.pathname + location.search;
  const user = useRouteLoaderData<RootShellData>("root")?.user;
  return (
    <header className="flex h-12 items-center gap-3 border-b border-slate-200 bg-white px-3">
      <form method="post" action="/shell/sidebar" className="flex" data-sidebar-form>
        <input type="hidden" name="redirectTo" value={here} />
        <button
          type="submit"
          name="open"
          value={sidebarOpen ? "0" : "1"}
          className="only-desktop rounded p-1.5 hover:bg-slate-100"
          aria-label={t("navbar.toggleSidebar")}
          aria-expanded={sidebarOpen}
          aria-controls="sidebar"
          data-testid="hamburger"
        >
          <Menu className="size-5" aria-hidden />
        </button>
        <button
          type="submit"
          name="mobile"
          value={mobileMenuOpen ? "close" : "open"}
          className="only-mobile rounded p-1.5 hover:bg-slate-100"
          aria-label={mobileMenuOpen ? t("navbar.closeMenu") : t("navbar.openMenu")}
          aria-expanded={mobileMenuOpen}
          aria-controls="sidebar"
          data-testid="hamburger-mobile"
          data-mobile-menu-button
          data-label-open={t("navbar.openMenu")}
          data-label-close={t("navbar.closeMenu")}
        >
          <Menu className="size-5" aria-hidden />
        </button>
      </form>
      <Breadcrumb trail={trail} />
      <div className="ml-auto flex items-center gap-2">
        <LanguageSwitcher />
        {user ? (
          <>
            <Link
              to="/personal/notifications"
              className="relative rounded p-1.5 text-slate-600 hover:bg-slate-100"
              aria-label={t("notifications.bell", { count: notifications })}
              data-label={liveLabel(t, i18n.language, "notifications.bell")}
              data-testid="bell"
            >
              <Bell className="size-5" aria-hidden />
              {/* Always there, hidden at zero: the shell module updates it live. */}
              <span
                className="absolute -top-0.5 -right-1 rounded-full bg-red-600 px-1 text-[10px] leading-4 font-medium text-white"
                data-testid="bell-badge"
                data-badge="notifications"
                hidden={!badgeText(notifications)}
              >
                {badgeText(notifications)}
              </span>
            </Link>
            {/* With JavaScript a dialog asks (the shell module); without, /logout is the question. */}
            <a
              href="/logout"
              className={buttonVariants({ size: "sm", variant: "ghost" })}
              data-testid="logout"
              data-logout={t("auth.logoutQuestion")}
            >
              <LogOut className="size-4" aria-hidden />
              <span className="max-sm:sr-only">{t("navbar.logout")}</span>
            </a>
            <a href="/personal" target="_blank" rel="noopener" title={t("auth.avatar")} data-testid="avatar">
              <Avatar image={user.image} name={user.nickName} />
            </a>
          </>
        ) : (
          <LoginButton redirect={here} />
        )}
      </div>
    </header>
  );
}
