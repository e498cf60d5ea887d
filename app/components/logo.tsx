import { useTranslation } from "react-i18next";
import { Link } from "react-router";

/** The product logo (inline SVG: no extra request before first paint). */
export function Logo({ showTitle = true }: { showTitle?: boolean }) {
  const { t } = useTranslation();
  return (
    <Link to="/home" className="flex items-center gap-2 font-semibold text-slate-800" aria-label={t("product.title")}>
      <svg viewBox="0 0 32 32" className="size-7 shrink-0" role="img" aria-label={t("product.logoAlt")}>
        <circle cx="16" cy="16" r="15" fill="#1890ff" />
        <path d="M9 21l5-10 4 7 3-4 3 7z" fill="#fff" />
      </svg>
      {showTitle ? (
        <span className="sidebar-title leading-tight" data-testid="brand">
          {t("product.title")}
        </span>
      ) : null}
    </Link>
  );
}
