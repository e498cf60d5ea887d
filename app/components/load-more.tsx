import { useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { Link, useFetcher, useLocation } from "react-router";
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
 * A paged list that, with JavaScript, appends the next page as its end scrolls into view (the
 * loader answers the same data for `?page=n`); without JavaScript the <PageLinks> are plain links.
 */
export function useLoadMore<T extends { id: number }>(data: Page<T>) {
  const [items, setItems] = useState<T[]>(data.items);
  const [next, setNext] = useState(data.has_more ? data.page + 1 : null);
  const fetcher = useFetcher<Page<T>>();
  const sentinel = useRef<HTMLDivElement>(null);
  const pageUrl = usePageUrl();

  useEffect(() => {
    setItems(data.items);
    setNext(data.has_more ? data.page + 1 : null);
  }, [data]);

  useEffect(() => {
    const more = fetcher.data;
    if (!more || fetcher.state !== "idle") return;
    setItems((current) => [...current, ...more.items.filter((item) => !current.some((c) => c.id === item.id))]);
    setNext(more.has_more ? more.page + 1 : null);
  }, [fetcher.data, fetcher.state]);

  useEffect(() => {
    const element = sentinel.current;
    if (!element || next === null) return;
    const observer = new IntersectionObserver((entries) => {
      if (entries.some((e) => e.isIntersecting) && fetcher.state === "idle") fetcher.load(pageUrl(next));
    });
    observer.observe(element);
    return () => observer.disconnect();
  });

  return { items, next, loading: fetcher.state !== "idle", sentinel };
}

/** Previous / next links under a paged list; also the element whose visibility loads more. */
export function PageLinks({ page, list }: { page: number; list: ReturnType<typeof useLoadMore> }) {
  const { t } = useTranslation();
  const pageUrl = usePageUrl();
  return (
    <div ref={list.sentinel} className="mt-4 flex justify-between text-sm">
      {page > 1 ? (
        <Link to={pageUrl(page - 1)} className={buttonVariants({ variant: "outline", size: "sm" })}>
          {t("feed.previous")}
        </Link>
      ) : (
        <span />
      )}
      {list.loading ? <span className="text-slate-500">{t("feed.loadingMore")}</span> : null}
      {list.next !== null ? (
        <Link to={pageUrl(list.next)} className={buttonVariants({ variant: "outline", size: "sm" })} data-testid="next-page">
          {t("feed.next")}
        </Link>
      ) : null}
    </div>
  );
}
