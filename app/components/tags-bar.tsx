import Ellipsis from "lucide-react/icons/ellipsis";
import RotateCw from "lucide-react/icons/rotate-cw";
import X from "lucide-react/icons/x";
import { useTranslation } from "react-i18next";
import { Link, useLocation } from "react-router";
import { findMeta } from "~/lib/route-meta";
import { cn } from "~/lib/utils";
import { isAffix, type VisitedView } from "~/lib/visited-views";

const ACTION = "/shell/tags";
const FORM_ID = "tags-form";

/**
 * Visited views. Closing works as form posts (no JavaScript needed); the right-click menu (from the
 * template below) and middle-click close are the shell module's (app/enhance/shell.ts), and post the same form.
 */
export function TagsBar({ views }: { views: VisitedView[] }) {
  const { t } = useTranslation();
  const location = useLocation();
  const current = location.pathname + location.search;
  return (
    <div className="relative border-b border-slate-200 bg-white px-2 shadow-sm" data-testid="tags-bar">
      <form id={FORM_ID} method="post" action={ACTION} className="flex items-center gap-1 py-1" aria-label={t("tagsView.label")}>
        <input type="hidden" name="current" value={current} />
        {/* Tabs wrap rather than scroll: a tab scrolled out of sight could not be brought back without JavaScript. */}
        <ul className="flex min-w-0 flex-1 flex-wrap items-center gap-1 px-1">
          {views.map((view) => {
            const meta = findMeta(view.path);
            const title = meta ? t(`route.${meta.title}`) : view.path;
            const active = view.path === location.pathname;
            return (
              <li key={view.path} className="shrink-0">
                <span
                  className={cn(
                    "flex items-center gap-1 rounded border px-2 py-0.5 text-xs",
                    active ? "border-brand bg-brand text-white" : "border-slate-200 bg-white text-slate-600",
                  )}
                  data-testid="tag"
                  data-path={view.path}
                  data-affix={isAffix(view.path) ? "" : undefined}
                >
                  <Link to={view.fullPath} aria-current={active ? "page" : undefined}>
                    {title}
                  </Link>
                  {isAffix(view.path) ? null : (
                    <button
                      type="submit"
                      name="close"
                      value={view.path}
                      aria-label={t("tagsView.closeTab", { title })}
                      className="-my-1 inline-flex size-6 items-center justify-center rounded-full hover:bg-black/10"
                    >
                      <X className="size-3" aria-hidden />
                    </button>
                  )}
                </span>
              </li>
            );
          })}
        </ul>
        <details className="relative shrink-0" data-testid="tags-more">
          <summary className="rounded p-1 hover:bg-slate-100" aria-label={t("tagsView.more")}>
            <Ellipsis className="size-4" aria-hidden />
          </summary>
          <div className="absolute right-0 z-20 mt-1 flex w-36 flex-col rounded border border-slate-200 bg-white py-1 text-sm shadow-md">
            <Link to={`/redirect${current}`} className="px-3 py-1.5 hover:bg-slate-100">
              {t("tagsView.refresh")}
            </Link>
            <button type="submit" name="closeOthers" value={location.pathname} className="px-3 py-1.5 text-left hover:bg-slate-100">
              {t("tagsView.closeOthers")}
            </button>
            <button type="submit" name="closeAll" value="1" className="px-3 py-1.5 text-left hover:bg-slate-100">
              {t("tagsView.closeAll")}
            </button>
          </div>
        </details>
      </form>
      {/* The right-click menu, hidden: the shell module shows a copy where the click was, for that tab. */}
      <div hidden data-tags-menu>
        <ul className="context-menu absolute top-8 z-30 rounded border border-slate-200 bg-white py-1 text-xs shadow-md">
          <li>
            <a href="/redirect/" className="flex items-center gap-1 px-3 py-1.5 hover:bg-slate-100">
              <RotateCw className="size-3" aria-hidden />
              {t("tagsView.refresh")}
            </a>
          </li>
          <li>
            <button type="submit" form={FORM_ID} name="close" className="w-full px-3 py-1.5 text-left hover:bg-slate-100">
              {t("tagsView.close")}
            </button>
          </li>
          <li>
            <button type="submit" form={FORM_ID} name="closeOthers" className="w-full px-3 py-1.5 text-left hover:bg-slate-100">
              {t("tagsView.closeOthers")}
            </button>
          </li>
          <li>
            <button type="submit" form={FORM_ID} name="closeAll" value="1" className="w-full px-3 py-1.5 text-left hover:bg-slate-100">
              {t("tagsView.closeAll")}
            </button>
          </li>
        </ul>
      </div>
    </div>
  );
}
