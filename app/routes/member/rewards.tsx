import { useTranslation } from "react-i18next";
import { REWARDS } from "~/lib/rewards";
import type { Route } from "./+types/route";

/** The milestones reached, and (on one's own page) the rules. */
export function Rewards({ data }: { data: Route.ComponentProps["loaderData"] }) {
  const { t } = useTranslation();
  const { is_self, rewards } = data;
  return (
    <section data-testid="rewards">
      <h2 className="mb-2 font-medium">{t("rewards.title")}</h2>
      {rewards.length === 0 ? <p className="mb-2 text-sm text-slate-500">{t("rewards.none")}</p> : null}
      <ul className="mb-2 flex flex-wrap gap-2">
        {rewards.map((earned) => (
          <li key={earned.reward} className="rounded-full bg-amber-100 px-3 py-1 text-sm text-amber-900">
            ★ {t(`rewards.name.${earned.reward}`)}
          </li>
        ))}
      </ul>
      {is_self ? (
        <details className="text-sm text-slate-600">
          <summary className="cursor-pointer">{t("rewards.rules")}</summary>
          <ul className="mt-1 list-disc pl-5" data-testid="reward-rules">
            {REWARDS.map(({ key, count }) => (
              <li key={key}>
                {t(`rewards.name.${key}`)}: {t(`rewards.rule.${key}`, { count })}
                {rewards.some((earned) => earned.reward === key) ? " ✓" : ""}
              </li>
            ))}
          </ul>
        </details>
      ) : null}
    </section>
  );
}
