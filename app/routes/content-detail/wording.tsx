import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { languageName } from "~/lib/captions";

/**
 * Which text the title and abstract are (decision 0050): a translation says whose, with the way to
 * the original; the original shown to a reader who has a translation offers it.
 */
export function Wording({
  id,
  source,
  other,
}: {
  id: number;
  source: "original" | "author" | "machine";
  other: { lang: string | null; original: boolean } | null;
}) {
  const { t, i18n } = useTranslation();
  if (!other) return null;
  const language = other.lang ? languageName(other.lang, i18n.language) : "—";
  return (
    <p className="text-sm text-slate-600" data-testid="wording">
      {source === "original" ? null : (
        <span data-testid="wording-label">{t(source === "author" ? "content.byAuthor" : "content.byMachine")} · </span>
      )}
      <Link to={`/retrieval/detail?id=${id}${other.original ? "&text=original" : ""}`} className="text-brand underline underline-offset-2">
        {t(other.original ? "content.readOriginal" : "content.readTranslation", { language })}
      </Link>
    </p>
  );
}
