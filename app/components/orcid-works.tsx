import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import type { OrcidWork } from "~/lib/shapes";
import { OrcidIcon } from "./orcid";

/**
 * The upload page's "Your works on ORCID" (for a member with a linked iD): a link that lists them
 * (read from ORCID only when asked), then each work's link starting an upload filled in from it.
 */
export function OrcidWorks({ works }: { works: OrcidWork[] | { refused: string } | null }) {
  const { t } = useTranslation();
  if (works === null) {
    return (
      <p className="mb-4 max-w-2xl text-sm">
        <Link
          to="/upload?from=orcid"
          className="inline-flex items-center gap-1 text-brand underline underline-offset-2"
          data-testid="orcid-works-link"
        >
          <OrcidIcon />
          {t("orcid.works")}
        </Link>
      </p>
    );
  }
  return (
    <section className="mb-4 max-w-2xl rounded-lg border border-slate-200 bg-white p-4" data-testid="orcid-works">
      <h2 className="mb-1 flex items-center gap-1 font-medium">
        <OrcidIcon />
        {t("orcid.works")}
      </h2>
      {"refused" in works ? (
        <p role="alert" className="text-sm text-red-700">
          {t(works.refused as "notify.orcidWorksUnavailable")}
        </p>
      ) : works.length === 0 ? (
        <p className="text-sm text-slate-600">{t("orcid.noWorks")}</p>
      ) : (
        <>
          <p className="mb-2 text-sm text-slate-600">{t("orcid.worksHelp")}</p>
          <ul className="divide-y divide-slate-100">
            {works.map((work) => {
              const from = work.doi
                ? `doi=${encodeURIComponent(work.doi)}`
                : `title=${encodeURIComponent(work.title)}${work.year ? `&year=${work.year}` : ""}`;
              return (
                <li key={work.putCode} className="flex items-center justify-between gap-3 py-2 text-sm">
                  <span>
                    {work.title}
                    <span className="text-slate-600">
                      {work.year ? ` (${work.year})` : ""}
                      {work.doi ? ` · doi:${work.doi}` : ""}
                    </span>
                  </span>
                  <Link to={`/upload?${from}`} className="shrink-0 text-brand underline underline-offset-2">
                    {t("orcid.startUpload")}
                  </Link>
                </li>
              );
            })}
          </ul>
        </>
      )}
    </section>
  );
}
