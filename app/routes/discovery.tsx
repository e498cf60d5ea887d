import { useTranslation } from "react-i18next";
import { Form } from "react-router";
import { feedQuerySchema, listFeed } from "~/.server/content/feed";
import { ContentGrid } from "~/components/content-card";
import { GoalSelect } from "~/components/content-fields";
import { PageLinks, useLoadMore } from "~/components/load-more";
import { PageTitle } from "~/components/page-title";
import { Button } from "~/components/ui/button";
import type { Route } from "./+types/discovery";

export async function loader({ request }: Route.LoaderArgs) {
  const query = feedQuerySchema.parse(Object.fromEntries(new URL(request.url).searchParams));
  const feed = await listFeed(query);
  return { ...feed, page: query.page, query, now: Date.now() };
}

const select = "h-9 rounded-md border border-slate-300 bg-white px-2 text-sm";

/**
 * Publicized documents and videos, by goal and kind, newest / most viewed / most liked. Pages are
 * links without JavaScript; with it, the next page loads as the end of the list scrolls into view.
 */
export default function Discovery({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const { query } = loaderData;
  const list = useLoadMore(loaderData);

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
      {list.items.length === 0 ? <p className="text-slate-600">{t("feed.nothing")}</p> : null}
      <ContentGrid items={list.items} now={loaderData.now} eager level={2} testId="feed" />
      <PageLinks page={query.page} list={list} />
    </>
  );
}
