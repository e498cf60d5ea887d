import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { recommendedRead } from "~/.server/content/recommend";
import { countsRead, placeScore, rankingList, rankingRead } from "~/.server/ranking/ranking";
import { anyScoreRunRead, ensureScores } from "~/.server/ranking/score-runs";
import { readTogether } from "~/.server/reads";
import { requireUser } from "~/.server/web/auth/session";
import { languageOf } from "~/.server/web/i18n/request-language";
import { ContentGrid } from "~/components/content-card";
import { PageTitle } from "~/components/page-title";
import { RankingRows } from "~/components/ranking-rows";
import { RelativeTime } from "~/components/relative-time";
import type { Route } from "./+types/home";

const RECOMMENDED_EXCERPT = 6;
const RANKING_EXCERPT = 5;

export async function loader({ request, context }: Route.LoaderArgs) {
  const user = requireUser(request, context);
  const now = Date.now();
  // Everything the page shows in one round trip; the member's place follows from their score.
  const [started, picks, listed, counted] = await readTogether([
    anyScoreRunRead(),
    recommendedRead(user.id, 1, RECOMMENDED_EXCERPT, languageOf(request)),
    rankingRead(RANKING_EXCERPT),
    countsRead(now, user.id, user.id),
  ] as const);
  // A fresh install's first ranking is made now, and read again.
  await ensureScores(now, started);
  const ranking = started ? listed : await rankingList(RANKING_EXCERPT);
  const mine = await placeScore(user.id, now, counted);
  return { picks: picks.items, ranking, mine, me: user.id, now };
}

function SectionHeader({ title, to, testId }: { title: string; to: string; testId: string }) {
  const { t } = useTranslation();
  return (
    <div className="mb-3 flex items-baseline justify-between">
      <h2 className="font-medium">{title}</h2>
      <Link to={to} className="text-sm text-brand underline underline-offset-2" data-testid={testId}>
        {t("home.seeAll")}
      </Link>
    </div>
  );
}

/** The member's start: what to read or watch next, and where they stand. */
export default function Home({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const { picks, ranking, mine, me, now } = loaderData;
  return (
    <div className="grid gap-6 xl:grid-cols-[1fr_20rem]">
      <PageTitle titleKey="home" />
      <section>
        <SectionHeader title={t("route.recommendList")} to="/home/recommendList" testId="more-recommended" />
        {picks.length === 0 ? <p className="text-slate-600">{t("home.nothingRecommended")}</p> : null}
        <ContentGrid
          items={picks}
          now={now}
          eager
          testId="recommended"
          columns="sm:grid-cols-2 2xl:grid-cols-3"
          sizes="(min-width: 1536px) 400px, (min-width: 640px) 50vw, 100px"
        />
      </section>
      <section>
        <SectionHeader title={t("route.rankingList")} to="/home/rankingList" testId="more-ranking" />
        <RankingRows members={ranking} me={me} testId="ranking-excerpt" />
        {/* The list is the last recomputation; the member's own score below is counted now: each says so. */}
        {mine.ranked_at !== null ? (
          <p className="mt-2 text-xs text-slate-500" data-testid="ranking-computed">
            {t("ranking.computed")} <RelativeTime date={new Date(mine.ranked_at)} now={new Date(now)} />
          </p>
        ) : null}
        <p className="mt-2 text-sm text-slate-600">
          <Link to="/personal/ranking" className="text-brand underline underline-offset-2">
            {mine.rank === null
              ? t("home.yourScoreUnranked", { score: mine.score.toFixed(2) })
              : t("home.yourScore", { score: mine.score.toFixed(2), rank: mine.rank })}
          </Link>
        </p>
      </section>
    </div>
  );
}
