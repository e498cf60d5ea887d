import { useTranslation } from "react-i18next";
import { FEED_PAGE_SIZE } from "~/.server/content/feed";
import { recommended } from "~/.server/content/recommend";
import { requireUser } from "~/.server/web/auth/session";
import { languageOf } from "~/.server/web/i18n/request-language";
import { ContentGrid } from "~/components/content-card";
import { PageLinks } from "~/components/load-more";
import { PageTitle } from "~/components/page-title";
import type { PageHandle } from "~/lib/page-handle";
import type { Route } from "./+types/recommend-list";

// The list grows as its end scrolls into view (docs/decisions/0046).
export const handle: PageHandle = { modules: ["lists"] };

export async function loader({ request, context }: Route.LoaderArgs) {
  const user = requireUser(request, context);
  const raw = Number(new URL(request.url).searchParams.get("page"));
  const page = Number.isInteger(raw) && raw > 0 && raw <= 1000 ? raw : 1;
  return { ...(await recommended(user.id, page, FEED_PAGE_SIZE, languageOf(request))), page, now: Date.now() };
}

/** The whole recommended list, paged by links (more on scroll with JavaScript). */
export default function RecommendList({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  return (
    <>
      <PageTitle titleKey="recommendList" />
      <p className="mb-3 text-sm text-slate-600">{t("home.recommendExplain")}</p>
      {loaderData.items.length === 0 ? <p className="text-slate-600">{t("home.nothingRecommended")}</p> : null}
      <ContentGrid items={loaderData.items} now={loaderData.now} eager level={2} testId="recommended" paged />
      <PageLinks page={loaderData.page} hasMore={loaderData.has_more} />
    </>
  );
}
