import { useTranslation } from "react-i18next";
import { AddOneForm } from "~/components/add-one-form";
import { TAG_LIMITS, TAG_MAX } from "~/lib/limits";
import { DEFAULT_TAGS, type DefaultTag } from "~/lib/profile-tags";
import type { Route } from "./+types/route";
import { RemoveChip } from "./remove-chip";

/** Profile tags, up to the membership level's limit; added and removed on one's own page. */
export function Tags({ data, actionData }: { data: Route.ComponentProps["loaderData"]; actionData: Route.ComponentProps["actionData"] }) {
  const { t } = useTranslation();
  const { member, is_self, tags, labels } = data;
  const level = t(`membership.${labels}.${member.membership}`);
  return (
    <section data-testid="tags">
      <h2 className="mb-2 font-medium">{t("member.tags")}</h2>
      {tags.length === 0 ? <p className="mb-2 text-sm text-slate-500">{t("member.noTags")}</p> : null}
      <ul className="mb-2 flex flex-wrap gap-2">
        {tags.map((tag) => (
          <li key={tag.id} className="flex items-center gap-1 rounded-full bg-slate-100 px-3 py-1 text-sm">
            {tag.custom ? tag.tag : t(`tags.${tag.tag as DefaultTag}`)}
            {is_self ? (
              <RemoveChip intent="remove-tag" name="tag" value={tag.id} label={t("member.removeTag")} hover="hover:bg-black/10" />
            ) : null}
          </li>
        ))}
      </ul>
      {is_self ? (
        <AddOneForm
          intent="add-tag"
          field="tag"
          label={t("member.addTag")}
          help={t("member.tagsHelp", { count: tags.length, max: TAG_LIMITS[member.membership], level })}
          lastResult={actionData && "tag" in actionData ? actionData.tag : undefined}
          control={(props) => (
            <>
              <input
                {...props}
                list="default-tags"
                maxLength={TAG_MAX}
                className="h-9 rounded-md border border-slate-300 bg-white px-3 text-sm aria-invalid:border-red-500"
              />
              <datalist id="default-tags">
                {DEFAULT_TAGS.map((key) => (
                  <option key={key} value={t(`tags.${key}`)} />
                ))}
              </datalist>
            </>
          )}
        />
      ) : null}
    </section>
  );
}
