import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { pointsLedger, scoreFor } from "~/.server/ranking/ranking";
import { ensureScores } from "~/.server/ranking/score-runs";
import { chartOf } from "~/.server/stats/chart";
import { memberZone, scoreHistory } from "~/.server/stats/stats";
import { requireUser } from "~/.server/web/auth/session";
import { languageOf } from "~/.server/web/i18n/request-language";
import { PageTitle } from "~/components/page-title";
import { RelativeTime } from "~/components/relative-time";
import { StatChart } from "~/components/stat-chart";
import { SCORE_INPUTS } from "~/lib/credit-score";
import type { Route } from "./+types/my-ranking";

export async function loader({ request, context }: Route.LoaderArgs) {
  const user = requireUser(request, context);
  const now = Date.now();
  await ensureScores(now);
  const [mine, points, history] = await Promise.all([scoreFor(user.id, now), pointsLedger(user.id, now), scoreHistory(user.id)]);
  const language = languageOf(request);
  const when = new Intl.DateTimeFormat(language, { dateStyle: "medium", timeStyle: "short", timeZone: await memberZone(user.id) });
  const labels = history.map((point) => when.format(point.as_of));
  const scoreChart =
    history.length === 0
      ? null
      : {
          chart: chartOf(
            labels,
            history.map((point) => Math.round(point.score * 100) / 100),
            { decimals: true },
          ),
          ranks: history.map((point) => point.rank),
          from: labels[0] ?? "",
          to: labels.at(-1) ?? "",
        };
  return { mine, points, now, scoreChart };
}

/** The member's credit score with every input's count, coefficient and product: nothing hidden. */
export default function MyRanking({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const { mine, points, now, scoreChart } = loaderData;
  return (
    <>
      <PageTitle titleKey="ranking" />
      <section className="max-w-2xl rounded-lg border border-slate-200 bg-white p-4" data-testid="my-score">
        <p className="mb-1 text-3xl font-semibold" data-testid="score">
          {mine.score.toFixed(2)}
        </p>
        <p className="mb-3 text-sm text-slate-600">
          {t("ranking.score")} ·{" "}
          {mine.rank === null || mine.ranked_at === null ? (
            t("ranking.noScore")
          ) : (
            <>
              <Link to="/home/rankingList" className="text-brand underline underline-offset-2">
                {t("ranking.rank", { rank: mine.rank })}
              </Link>{" "}
              · {t("ranking.computed")} <RelativeTime date={new Date(mine.ranked_at)} now={new Date(now)} />
            </>
          )}
        </p>
        <table className="mb-3 w-full text-sm" data-testid="breakdown">
          <thead>
            <tr className="border-b border-slate-200 text-left text-slate-500">
              <th className="py-1 font-normal">{t("ranking.input")}</th>
              <th className="py-1 text-right font-normal">{t("ranking.count")}</th>
              <th className="py-1 text-right font-normal">{t("ranking.coefficient")}</th>
              <th className="py-1 text-right font-normal">{t("ranking.product")}</th>
            </tr>
          </thead>
          <tbody>
            {SCORE_INPUTS.map((input) => (
              <tr key={input} className="border-b border-slate-100" data-input={input}>
                <td className="py-1">{t(`ranking.${input}`)}</td>
                <td className="py-1 text-right tabular-nums">{mine.breakdown[input].count}</td>
                <td className="py-1 text-right tabular-nums">× {mine.breakdown[input].coefficient}</td>
                <td className="py-1 text-right tabular-nums">{mine.breakdown[input].product.toFixed(2)}</td>
              </tr>
            ))}
            <tr className="font-medium">
              <td className="py-1" colSpan={3}>
                {t("ranking.total")}
              </td>
              <td className="py-1 text-right tabular-nums">{mine.score.toFixed(2)}</td>
            </tr>
          </tbody>
        </table>
        <p className="text-xs text-slate-500">{t("ranking.explain")}</p>
        <p className="text-xs text-slate-500">{t("ranking.pointsRules")}</p>
      </section>
      <section className="mt-4 max-w-2xl" aria-labelledby="score-history" data-testid="score-history">
        <h2 id="score-history" className="mb-1 font-medium">
          {t("stats.scoreHistory")}
        </h2>
        {scoreChart ? (
          <StatChart
            id="score"
            title={t("stats.scoreHistory")}
            description={t("stats.scoreHistoryDescription", { from: scoreChart.from, to: scoreChart.to })}
            chart={scoreChart.chart}
            valueHeading={t("stats.score")}
            extra={{ heading: t("stats.rank"), values: scoreChart.ranks }}
          />
        ) : (
          <p className="text-sm text-slate-600">{t("stats.noHistory")}</p>
        )}
      </section>
      <section className="mt-4 max-w-2xl rounded-lg border border-slate-200 bg-white p-4" data-testid="points-ledger">
        <h2 className="mb-1 font-medium">{t("ranking.recentPoints")}</h2>
        <p className="mb-2 text-sm text-slate-600">{t("ranking.pointsInPeriod", { count: points.period_total })}</p>
        {points.awards.length === 0 ? <p className="text-sm text-slate-500">{t("ranking.noPoints")}</p> : null}
        <ul className="divide-y divide-slate-100 text-sm">
          {points.rewards.map((earned) => (
            <li key={earned.reward} className="flex justify-between gap-3 py-1" data-testid="milestone">
              <span>★ {t("rewards.reached", { name: t(`rewards.name.${earned.reward}`) })}</span>
              <span className="text-slate-500">
                <RelativeTime date={new Date(earned.awarded_at)} now={new Date(now)} />
              </span>
              <span />
            </li>
          ))}
          {points.awards.map((award) => (
            <li key={`${award.created_at}-${award.reason}`} className="flex justify-between gap-3 py-1">
              <span>{t(`ranking.reason.${award.reason}`)}</span>
              <span className="text-slate-500">
                <RelativeTime date={new Date(award.created_at)} now={new Date(now)} />
              </span>
              <span className="tabular-nums">+{award.amount}</span>
            </li>
          ))}
        </ul>
      </section>
    </>
  );
}
