import { useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { Form, Link, useFetcher, useSearchParams } from "react-router";
import { ContentCard } from "~/components/content-card";
import { GoalSelect } from "~/components/content-fields";
import { PageTitle } from "~/components/page-title";
import { Button, buttonVariants } from "~/components/ui/button";
import { env } from "~/server/bindings";
import { type FeedItem, feedQuerySchema, listFeed } from "~/server/content/feed";
import type { Route } from "./+types/discovery";

export async function loader({ request }: Route.LoaderArgs) {
  const query = feedQuerySchema.parse(Object.fromEntries(new URL(request.url).searchParams));
  const feed = await listFeed(env.DB, query);
  return { ...feed, query, now: Date.now() };
}

const select = "h-9 rounded-md border border-slate-300 bg-white px-2 text-sm";

/**
 * Publicized documents and videos, by goal and kind, newest / most viewed / most liked. Pages are
 * links without JavaScript; with it, the next page loads as the end of the list scrolls into view.
 */
export default function Discovery({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const { query } = loaderData;
  const [items, setItems] = useState<FeedItem[]>(loaderData.items);
  const [next, setNext] = useState(loaderData.hasMore ? query.page + 1 : null);
  const fetcher = useFetcher<typeof loader>();
  const sentinel = useRef<HTMLDivElement>(null);
  const pageUrl = (page: number) => {
    const copy = new URLSearchParams(params);
    copy.set("page", String(page));
    return `/discovery?${copy}`;
  };

  useEffect(() => {
    setItems(loaderData.items);
    setNext(loaderData.hasMore ? loaderData.query.page + 1 : null);
  }, [loaderData]);

  useEffect(() => {
    if (fetcher.data && fetcher.state === "idle") {
      const more = fetcher.data;
      setItems((current) => [...current, ...more.items.filter((i) => !current.some((c) => c.id === i.id))]);
      setNext(more.hasMore ? more.query.page + 1 : null);
    }
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

  return (
    <>
      <PageTitle titleKey="discovery" />
      <Form method="get" className="mb-4 flex flex-wrap items-end gap-2" data-testid="feed-filters">
        <GoalSelect name="sdg" defaultValue={query.sdg ?? ""} aria-label={t("content.category")} emptyLabel={t("feed.allGoals")} />
        <select name="kind" defaultValue={query.kind ?? ""} aria-label={t("content.kind")} className={select}>
          <option value="">{t("feed.allKinds")}</option>
          <option value="document">{t("feed.documents")}</option>
          <option value="video">{t("feed.videos")}</option>
        </select>
        <select name="sort" defaultValue={query.sort} aria-label={t("feed.sortBy")} className={select}>
          <option value="newest">{t("feed.newest")}</option>
          <option value="views">{t("feed.mostViewed")}</option>
          <option value="likes">{t("feed.mostLiked")}</option>
        </select>
        <Button type="submit" variant="outline">
          {t("feed.apply")}
        </Button>
      </Form>
      {items.length === 0 ? <p className="text-slate-600">{t("feed.nothing")}</p> : null}
      <ul className="grid gap-4 sm:grid-cols-2 xl:grid-cols-3" data-testid="feed">
        {items.map((item) => (
          <ContentCard key={item.id} item={item} now={loaderData.now} />
        ))}
      </ul>
      <div ref={sentinel} className="mt-4 flex justify-between text-sm">
        {query.page > 1 ? (
          <Link to={pageUrl(query.page - 1)} className={buttonVariants({ variant: "outline", size: "sm" })}>
            {t("feed.previous")}
          </Link>
        ) : (
          <span />
        )}
        {fetcher.state !== "idle" ? <span className="text-slate-500">{t("feed.loadingMore")}</span> : null}
        {next !== null ? (
          <Link to={pageUrl(next)} className={buttonVariants({ variant: "outline", size: "sm" })} data-testid="next-page">
            {t("feed.next")}
          </Link>
        ) : null}
      </div>
    </>
  );
}
