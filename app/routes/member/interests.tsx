import { useTranslation } from "react-i18next";
import { AddOneForm } from "~/components/add-one-form";
import { GoalSelect } from "~/components/content-fields";
import { MAX_INTERESTS } from "~/lib/limits";
import { sdgKey, sdgStyle } from "~/lib/sdg";
import type { Route } from "./+types/route";
import { RemoveChip } from "./remove-chip";

function GoalChip({ sdg, children }: { sdg: number; children?: React.ReactNode }) {
  const { t } = useTranslation();
  return (
    <li className="flex items-center gap-1 rounded-full px-3 py-1 text-sm" style={sdgStyle(sdg)}>
      {sdg}. {t(sdgKey(sdg))}
      {children}
    </li>
  );
}

/** Interests (goals), at most five; added and removed on one's own page. */
export function Interests({
  data,
  actionData,
}: {
  data: Route.ComponentProps["loaderData"];
  actionData: Route.ComponentProps["actionData"];
}) {
  const { t } = useTranslation();
  const { is_self, interests } = data;
  return (
    <section data-testid="interests">
      <h2 className="mb-2 font-medium">{t("member.interests")}</h2>
      {interests.length === 0 ? <p className="mb-2 text-sm text-slate-500">{t("member.noInterests")}</p> : null}
      <ul className="mb-2 flex flex-wrap gap-2">
        {interests.map((sdg) => (
          <GoalChip key={sdg} sdg={sdg}>
            {is_self ? (
              <RemoveChip intent="remove-interest" name="sdg" value={sdg} label={t("member.removeInterest")} hover="hover:bg-black/20" />
            ) : null}
          </GoalChip>
        ))}
      </ul>
      {is_self ? (
        <AddOneForm
          intent="add-interest"
          field="sdg"
          label={t("member.addInterest")}
          help={t("member.interestsHelp", { max: MAX_INTERESTS })}
          lastResult={actionData && "interest" in actionData ? actionData.interest : undefined}
          control={(props) => <GoalSelect {...props} emptyLabel="—" />}
        />
      ) : null}
    </section>
  );
}
