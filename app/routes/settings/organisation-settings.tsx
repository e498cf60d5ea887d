import { useTranslation } from "react-i18next";
import { Form } from "react-router";
import { OrganisationLabel, RegistrySearch } from "~/components/registry-search";
import { Button } from "~/components/ui/button";
import type { settingsPage } from "./page.server";

type OrganisationData = Awaited<ReturnType<typeof settingsPage>>["organisation"];
const link = "text-brand underline underline-offset-2";

/**
 * Settings' organisation (docs/decisions/0052): the name as typed, the ROR record linked, and a
 * search of the registry whose answers are picked by a plain form, with and without JavaScript.
 */
export function OrganisationSettings({ organisation }: { organisation: OrganisationData }) {
  const { t } = useTranslation();
  const { typed, ror, rorName } = organisation;
  const search = "query" in organisation ? organisation : { query: "", found: null, problem: null };
  return (
    <>
      <h2 className="mb-1 font-medium">{t("ror.title")}</h2>
      <p className="mb-3 text-sm text-slate-600">{t("ror.help")}</p>
      {typed ? <p className="text-sm">{t("ror.typed", { name: typed })}</p> : null}
      {ror ? (
        <Form method="post" className="mb-4 flex flex-wrap items-center gap-2 text-sm" data-testid="ror-linked">
          <a href={ror} className={link}>
            {t("ror.linked", { name: rorName ?? ror })}
          </a>
          <Button type="submit" name="intent" value="unlink-organisation" variant="outline" size="sm">
            {t("ror.unlink")}
          </Button>
        </Form>
      ) : (
        <p className="mb-4 text-sm text-slate-600">{t("ror.none")}</p>
      )}
      <RegistrySearch
        answer={search}
        action="/personal/Setting"
        keep={{ section: "organisation" }}
        pick={(found) => (
          <Form method="post" data-testid="ror-results">
            <fieldset className="mb-3">
              <legend className="mb-1 text-sm font-medium">{t("ror.results")}</legend>
              {found.map((org, i) => (
                <label key={org.id} className="flex items-start gap-2 py-1 text-sm">
                  <input type="radio" name="ror_id" value={org.id} defaultChecked={i === 0} className="mt-1" />
                  <OrganisationLabel org={org} />
                </label>
              ))}
            </fieldset>
            <Button type="submit" name="intent" value="link-organisation">
              {t("ror.pick")}
            </Button>
          </Form>
        )}
      />
    </>
  );
}
