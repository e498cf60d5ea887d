import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { PageTitle } from "~/components/page-title";
import { requireUser } from "~/server/auth/session";
import { env } from "~/server/bindings";
import { ensureScores, rankingList } from "~/server/ranking/ranking";
import type { Route } from "./+types/ranking-list";

export async function loader({ request, context }: Route.LoaderArgs) {
  const user = requireUser(request, context);
  await ensureScores(env.DB, Date.now());
  return { members: await rankingList(env.DB), me: user.id };
}

/** Everyone by stored credit score; equal scores share a rank. */
export default function RankingList({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  return (
    <>
      <PageTitle titleKey="rankingList" />
      <p className="mb-3 text-sm text-slate-600">
        <Link to="/personal/ranking" className="text-brand hover:underline">
          {t("route.ranking")}
        </Link>{" "}
        · {t("ranking.explain")}
      </p>
      <ol className="max-w-2xl divide-y divide-slate-100 rounded-lg border border-slate-200 bg-white" data-testid="ranking">
        {loaderData.members.map((member) => (
          <li key={member.user_id} className={member.user_id === loaderData.me ? "flex gap-3 bg-sky-50 p-2" : "flex gap-3 p-2"}>
            <span className="w-10 text-right tabular-nums text-slate-500">{member.rank}</span>
            <Link to={`/personal?member=${member.user_id}`} className="flex-1 hover:text-brand">
              {member.nick_name}
            </Link>
            <span className="tabular-nums">{member.score.toFixed(2)}</span>
          </li>
        ))}
      </ol>
    </>
  );
}
