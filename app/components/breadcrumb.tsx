import ChevronRight from "lucide-react/icons/chevron-right";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import type { RouteMeta } from "~/lib/route-meta";
import { cn } from "~/lib/utils";

/** Dashboard first, then the page's place in the route table. */
export function Breadcrumb({ trail }: { trail: RouteMeta[] }) {
  const { t } = useTranslation();
  return (
    <nav aria-label={t("navbar.breadcrumb")} data-testid="breadcrumb" className="min-w-0">
      {/* On a phone only the current page shows (the trail would push the header's buttons off). */}
      <ol className="flex items-center gap-1 text-sm whitespace-nowrap text-slate-500">
        <li className={trail.length > 0 ? "max-sm:hidden" : undefined}>
          <Link to="/" className="hover:text-brand">
            {t("route.dashboard")}
          </Link>
        </li>
        {trail.map((meta, i) => (
          <li key={meta.path} className={cn("flex items-center gap-1", i < trail.length - 1 && "max-sm:hidden")}>
            <ChevronRight className="size-3.5 max-sm:hidden" aria-hidden />
            {i === trail.length - 1 ? (
              <span aria-current="page" className="text-slate-800">
                {t(`route.${meta.title}`)}
              </span>
            ) : (
              <Link to={meta.path} className="hover:text-brand">
                {t(`route.${meta.title}`)}
              </Link>
            )}
          </li>
        ))}
      </ol>
    </nav>
  );
}
