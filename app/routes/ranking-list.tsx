import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { rankingList } from "~/.server/ranking/ranking";
import { ensureScores } from "~/.server/ranking/score-runs";
import { requireUser } from "~/.server/web/auth/session";
import { PageTitle } from "~/components/page-title";
import { RankingRows } from "~/components/ranking-rows";
import type { Route } from "./+types/ranking-list";

export async function loader({ request, context }: Route.LoaderArgs) {
  const user = requireUser(request, context);
  await ensureScores(Date.now());
  return { members: await rankingList(), me: user.id };
}

/** Everyone by stored credit score; equal scores share a rank. */
export default function RankingList({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  return (
    <>
      <PageTitle titleKey="rankingList" />
      <p className="mb-3 text-sm text-slate-600">
        <Link to="/personal/ranking" className="text-brand underline underline-offset-2">
          {t("route.ranking")}
        </Link>{" "}
        · {t("ranking.explain")}
      </p>
      <RankingRows members={loaderData.members} me={loaderData.me} testId="ranking" className="max-w-2xl" />
    </>
  );
}
