import { useTranslation } from "react-i18next";
import { data, Form } from "react-router";
import { FEED_PAGE_SIZE, feedQuerySchema, listFeed } from "~/.server/content/feed";
import { followedGoals, followGoal } from "~/.server/notifications/new-items";
import { requireUser } from "~/.server/web/auth/session";
import { languageOf } from "~/.server/web/i18n/request-language";
import { flashRedirect } from "~/.server/web/shell/flash";
import { ContentGrid } from "~/components/content-card";
import { GoalSelect } from "~/components/content-fields";
import { PageLinks } from "~/components/load-more";
import { PageTitle } from "~/components/page-title";
import { Button } from "~/components/ui/button";
import type { PageHandle } from "~/lib/page-handle";
import type { Route } from "./+types/discovery";

// The list grows as its end scrolls into view (docs/decisions/0046).
export const handle: PageHandle = { modules: ["lists"] };

export async function loader({ request, context }: Route.LoaderArgs) {
  const user = requireUser(request, context);
  const query = feedQuerySchema.parse(Object.fromEntries(new URL(request.url).searchParams));
  const [feed, goals] = await Promise.all([listFeed(query, FEED_PAGE_SIZE, languageOf(request)), followedGoals(user.id)]);
  return { ...feed, page: query.page, query, now: Date.now(), following: query.sdg ? goals.includes(query.sdg) : false };
}

/** Follow or stop following the goal shown: its new items then notify (decision 0040). */
export async function action({ request, context }: Route.ActionArgs) {
  const user = requireUser(request, context);
  const form = await request.formData();
  const sdg = Number(form.get("sdg"));
  if (!Number.isInteger(sdg) || sdg < 1 || sdg > 17) throw data(null, { status: 400 });
  const following = form.get("intent") === "follow-goal";
  await followGoal(user.id, sdg, following, Date.now());
  return flashRedirect(request, `/discovery?sdg=${sdg}`, "success", following ? "notify.goalFollowed" : "notify.goalUnfollowed");
}

const select = "h-9 rounded-md border border-slate-300 bg-white px-2 text-sm";

/**
 * Publicized documents and videos, by goal and kind, newest / most viewed / most liked. Pages are
 * links without JavaScript; with it, the next page loads as the end of the list scrolls into view.
 */
export default function Discovery({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const { query } = loaderData;

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
      {query.sdg ? (
        <Form method="post" className="mb-4" data-testid="follow-goal">
          <input type="hidden" name="sdg" value={query.sdg} />
          <input type="hidden" name="intent" value={loaderData.following ? "unfollow-goal" : "follow-goal"} />
          <Button type="submit" variant={loaderData.following ? "outline" : "default"} size="sm">
            {loaderData.following ? t("feed.unfollowGoal") : t("feed.followGoal")}
          </Button>
        </Form>
      ) : null}
      {loaderData.items.length === 0 ? <p className="text-slate-600">{t("feed.nothing")}</p> : null}
      <ContentGrid items={loaderData.items} now={loaderData.now} eager level={2} testId="feed" paged />
      <PageLinks page={query.page} hasMore={loaderData.has_more} />
    </>
  );
}
