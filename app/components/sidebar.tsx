import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { badgeText } from "~/lib/badge";
import { liveLabel } from "~/lib/live-label";
import { buildMenu, type MenuItem } from "~/lib/menu";
import { Logo } from "./logo";
import { MenuIcon } from "./menu-icon";

interface SidebarProps {
  activePath?: string;
  unread: number;
  items?: MenuItem[];
}

/** The main menu. Hidden routes are left out and single children collapse (see lib/menu.ts). */
export function Sidebar({ activePath, unread, items = buildMenu() }: SidebarProps) {
  const { t } = useTranslation();
  return (
    <aside className="sidebar" id="sidebar" data-testid="sidebar">
      <div className="flex h-14 items-center px-3">
        <Logo />
      </div>
      <nav aria-label={t("navbar.mainMenu")}>
        <ul>
          {items.map((item) => (
            <MenuEntry key={item.path} item={item} activePath={activePath} unread={unread} />
          ))}
        </ul>
      </nav>
    </aside>
  );
}

function MenuEntry({ item, activePath, unread }: { item: MenuItem; activePath?: string; unread: number }) {
  const { t, i18n } = useTranslation();
  const title = t(`route.${item.title}`);
  const badge = item.badge === "unread" ? badgeText(unread) : null;
  const label = (
    <>
      <MenuIcon name={item.icon} />
      <span className="menu-label flex-1">{title}</span>
      {item.badge === "unread" ? (
        // Always there, hidden at zero: the shell module updates it live.
        <span
          className="menu-badge rounded-full bg-red-500 px-1.5 text-xs leading-5 text-white"
          data-testid="unread-badge"
          data-badge="messages"
          data-count={unread}
          title={t("navbar.unread", { count: unread })}
          data-label={liveLabel(t, i18n.language, "navbar.unread")}
          hidden={!badge}
        >
          {badge}
        </span>
      ) : null}
    </>
  );
  if (item.external) {
    return (
      <li>
        <a className="menu-link" href={item.path} target="_blank" rel="noopener noreferrer" title={`${title} ${t("navbar.opensInNewTab")}`}>
          {label}
        </a>
      </li>
    );
  }
  if (item.children) {
    return (
      <li>
        <span className="menu-link">{label}</span>
        <ul className="pl-4">
          {item.children.map((child) => (
            <MenuEntry key={child.path} item={child} activePath={activePath} unread={unread} />
          ))}
        </ul>
      </li>
    );
  }
  const active = activePath === item.path;
  return (
    <li>
      <Link className="menu-link" to={item.path} aria-current={active ? "page" : undefined} title={title}>
        {label}
      </Link>
    </li>
  );
}
