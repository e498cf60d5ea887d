import { useTranslation } from "react-i18next";
import { Link, useLocation } from "react-router";
import { buttonVariants } from "~/components/ui/button";

export interface Page<T> {
  items: T[];
  has_more: boolean;
  page: number;
}

/** The page's URL with another `page` value, keeping every other query parameter. */
export function usePageUrl() {
  const { pathname, search } = useLocation();
  return (page: number) => {
    const copy = new URLSearchParams(search);
    copy.set("page", String(page));
    return `${pathname}?${copy}`;
  };
}

/**
 * Previous / next links under a paged list (the list itself carries `data-paged`). With JavaScript
 * the lists module (app/enhance/lists.ts) appends the next page as these links scroll into view;
 * without, they are plain links.
 */
export function PageLinks({ page, hasMore }: { page: number; hasMore: boolean }) {
  const { t } = useTranslation();
  const pageUrl = usePageUrl();
  return (
    <div className="mt-4 flex justify-between text-sm" data-load-more={t("feed.loadingMore")}>
      {page > 1 ? (
        <Link to={pageUrl(page - 1)} className={buttonVariants({ variant: "outline", size: "sm" })}>
          {t("feed.previous")}
        </Link>
      ) : (
        <span />
      )}
      {hasMore ? (
        <Link to={pageUrl(page + 1)} className={buttonVariants({ variant: "outline", size: "sm" })} data-testid="next-page">
          {t("feed.next")}
        </Link>
      ) : null}
    </div>
  );
}
