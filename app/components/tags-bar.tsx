import Ellipsis from "lucide-react/icons/ellipsis";
import RotateCw from "lucide-react/icons/rotate-cw";
import X from "lucide-react/icons/x";
import { useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { Form, Link, useLocation, useSubmit } from "react-router";
import { CONTEXT_MENU_WIDTH } from "~/lib/config";
import { findMeta } from "~/lib/route-meta";
import { cn } from "~/lib/utils";
import { isAffix, type VisitedView } from "~/lib/visited-views";

const ACTION = "/shell/tags";

/**
 * Visited views. Closing works as form posts (no JavaScript needed); the right-click menu and
 * middle-click close are enhancements that post the same forms.
 */
export function TagsBar({ views }: { views: VisitedView[] }) {
  const { t } = useTranslation();
  const location = useLocation();
  const submit = useSubmit();
  const barRef = useRef<HTMLDivElement>(null);
  const [menu, setMenu] = useState<{ left: number; view: VisitedView } | null>(null);
  const current = location.pathname + location.search;

  useEffect(() => {
    if (!menu) return;
    const close = () => setMenu(null);
    document.addEventListener("click", close);
    return () => document.removeEventListener("click", close);
  }, [menu]);

  const post = (fields: Record<string, string>) =>
    submit({ ...fields, current }, { method: "post", action: ACTION, replace: true, preventScrollReset: true });

  return (
    <div ref={barRef} className="relative border-b border-slate-200 bg-white px-2 shadow-sm" data-testid="tags-bar">
      <Form
        method="post"
        action={ACTION}
        replace
        preventScrollReset
        className="flex items-center gap-1 py-1"
        aria-label={t("tagsView.label")}
      >
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
                >
                  <Link
                    to={view.fullPath}
                    aria-current={active ? "page" : undefined}
                    onContextMenu={(event) => {
                      event.preventDefault();
                      const box = barRef.current?.getBoundingClientRect();
                      const max = (box?.width ?? 0) - CONTEXT_MENU_WIDTH;
                      setMenu({ left: Math.max(0, Math.min(event.clientX - (box?.left ?? 0) + 15, max)), view });
                    }}
                    onAuxClick={(event) => {
                      if (event.button !== 1 || isAffix(view.path)) return;
                      event.preventDefault();
                      post({ close: view.path });
                    }}
                  >
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
        {/* Keyed by location so it closes again after a client-side navigation. */}
        <details key={location.key} className="relative shrink-0" data-testid="tags-more">
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
      </Form>
      {menu ? (
        <ul
          className="context-menu absolute top-8 z-30 rounded border border-slate-200 bg-white py-1 text-xs shadow-md"
          style={{ left: menu.left }}
          data-testid="tags-context-menu"
        >
          <li>
            <Link to={`/redirect${menu.view.fullPath}`} className="flex items-center gap-1 px-3 py-1.5 hover:bg-slate-100">
              <RotateCw className="size-3" aria-hidden />
              {t("tagsView.refresh")}
            </Link>
          </li>
          {isAffix(menu.view.path) ? null : (
            <li>
              <button
                type="button"
                className="w-full px-3 py-1.5 text-left hover:bg-slate-100"
                onClick={() => post({ close: menu.view.path })}
              >
                {t("tagsView.close")}
              </button>
            </li>
          )}
          <li>
            <button
              type="button"
              className="w-full px-3 py-1.5 text-left hover:bg-slate-100"
              onClick={() => post({ closeOthers: menu.view.path })}
            >
              {t("tagsView.closeOthers")}
            </button>
          </li>
          <li>
            <button type="button" className="w-full px-3 py-1.5 text-left hover:bg-slate-100" onClick={() => post({ closeAll: "1" })}>
              {t("tagsView.closeAll")}
            </button>
          </li>
        </ul>
      ) : null}
    </div>
  );
}
