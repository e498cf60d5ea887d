import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { Button } from "~/components/ui/button";
import { Field } from "~/components/ui/field";
import type { Organisation } from "~/lib/organisation";

/** A page's search of ROR (decision 0052), as the loader answered it. */
export interface RegistryAnswer {
  query: string;
  found: Organisation[] | null;
  problem: string | null;
}

/**
 * A search of the registry by name or acronym (`?ror=`, a GET form beside the page's own query),
 * why it could not answer, and what it found, each shown by `pick`: plain forms and links, with and
 * without JavaScript.
 */
export function RegistrySearch({
  answer,
  action,
  keep,
  pick,
}: {
  answer: RegistryAnswer;
  action: string;
  /** The page's own query, kept by the search. */
  keep: Record<string, string>;
  pick: (found: Organisation[]) => ReactNode;
}) {
  const { t } = useTranslation();
  return (
    <>
      <form method="get" action={action}>
        {Object.entries(keep).map(([name, value]) => (
          <input key={name} type="hidden" name={name} value={value} />
        ))}
        <Field id="ror-query" name="ror" label={t("ror.search")} defaultValue={answer.query} maxLength={200}>
          <Button type="submit">{t("ror.searchButton")}</Button>
        </Field>
      </form>
      {answer.problem ? (
        <p role="alert" className="text-sm text-red-700" data-testid="ror-problem">
          {t(answer.problem as "ror.slow")}
        </p>
      ) : null}
      {answer.found?.length === 0 ? <p className="text-sm text-slate-600">{t("ror.noResults")}</p> : null}
      {answer.found?.length ? pick(answer.found) : null}
    </>
  );
}

/** One organisation as the registry has it: its name, its name in the reader's language, acronym, country, and whether it is still active. */
export function OrganisationLabel({ org }: { org: Organisation }) {
  const { t } = useTranslation();
  return (
    <span>
      {org.name}
      {org.label ? ` (${org.label})` : ""}
      {org.acronym ? ` · ${org.acronym}` : ""}
      {org.country ? ` · ${org.country}` : ""}
      {org.status === "active" ? "" : ` · ${t("ror.inactive")}`}
    </span>
  );
}
