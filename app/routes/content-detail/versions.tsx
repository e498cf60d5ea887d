import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { RelativeTime } from "~/components/relative-time";

// An item's versions on its page (decision 0042): which one is shown and what changed, a banner on an
// earlier one, and the list, each openable at its own address forever.

interface VersionRow {
  number: number;
  note: string;
  file_size: number;
  created_at: number;
}

/** The file of the item, or of one of its earlier versions. */
export const fileUrlOf = (id: number, version?: number) => `/files/${id}${version ? `?version=${version}` : ""}`;

const versionUrl = (id: number, number: number, latest: number) =>
  `/retrieval/detail?id=${id}${number === latest ? "" : `&version=${number}`}`;

/** "Version 3 of 3 — what changed", or on an earlier version the banner that a newer one exists. */
export function VersionLine({ versions, shown, id }: { versions: VersionRow[]; shown: number; id: number }) {
  const { t } = useTranslation();
  const latest = versions[0]?.number ?? 1;
  if (latest <= 1) return null;
  const version = versions.find((v) => v.number === shown);
  return (
    <>
      {shown < latest ? (
        <p role="status" className="mt-2 rounded border border-amber-300 bg-amber-50 p-2 text-sm" data-testid="older-version">
          {t("content.olderVersion", { number: shown, latest })}{" "}
          <Link to={versionUrl(id, latest, latest)} className="text-brand underline underline-offset-2">
            {t("content.openLatest")}
          </Link>
        </p>
      ) : null}
      <p className="mt-1 text-sm text-slate-700" data-testid="version">
        <span className="font-medium">{t("content.versionOf", { number: shown, total: latest })}</span>
        {version?.note ? ` — ${t("content.whatChanged", { note: version.note })}` : ""}
      </p>
    </>
  );
}

/** Every version, newest first, each a link to its own page. */
export function VersionList({ versions, shown, id }: { versions: VersionRow[]; shown: number; id: number }) {
  const { t } = useTranslation();
  const latest = versions[0]?.number ?? 1;
  if (latest <= 1) return null;
  return (
    <section className="mt-4 rounded-lg border border-slate-200 bg-white p-4" aria-labelledby="versions-heading" data-testid="versions">
      <h3 id="versions-heading" className="mb-2 font-medium">
        {t("content.versions")}
      </h3>
      <ol className="flex flex-col gap-1 text-sm">
        {versions.map((version) => (
          <li key={version.number}>
            {version.number === shown ? (
              <span className="font-medium">{t("content.versionOf", { number: version.number, total: latest })}</span>
            ) : (
              <Link to={versionUrl(id, version.number, latest)} className="text-brand underline underline-offset-2">
                {t("content.versionOf", { number: version.number, total: latest })}
              </Link>
            )}
            {version.number === latest ? ` (${t("content.versionLatest")})` : ""} ·{" "}
            <RelativeTime date={new Date(version.created_at)} now={new Date()} /> · {(version.file_size / 1024 / 1024).toFixed(1)} MB
            {version.note ? ` · ${version.note}` : ""}
          </li>
        ))}
      </ol>
    </section>
  );
}
