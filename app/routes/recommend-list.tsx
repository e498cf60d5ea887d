import { useTranslation } from "react-i18next";
import { recommended } from "~/.server/content/recommend";
import { requireUser } from "~/.server/web/auth/session";
import { ContentGrid } from "~/components/content-card";
import { PageLinks, useLoadMore } from "~/components/load-more";
import { PageTitle } from "~/components/page-title";
import type { Route } from "./+types/recommend-list";

export async function loader({ request, context }: Route.LoaderArgs) {
  const user = requireUser(request, context);
  const raw = Number(new URL(request.url).searchParams.get("page"));
  const page = Number.isInteger(raw) && raw > 0 && raw <= 1000 ? raw : 1;
  return { ...(await recommended(user.id, page)), page, now: Date.now() };
}

/** The whole recommended list, paged by links (more on scroll with JavaScript). */
export default function RecommendList({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const list = useLoadMore(loaderData);
  return (
    <>
      <PageTitle titleKey="recommendList" />
      <p className="mb-3 text-sm text-slate-600">{t("home.recommendExplain")}</p>
      {list.items.length === 0 ? <p className="text-slate-600">{t("home.nothingRecommended")}</p> : null}
      <ContentGrid items={list.items} now={loaderData.now} eager level={2} testId="recommended" />
      <PageLinks page={loaderData.page} list={list} />
    </>
  );
}
