import { useTranslation } from "react-i18next";
import { authorsOf } from "~/lib/authors";
import { CITATION_FILES, type CitationFile } from "~/lib/citations";
import type { Author, ListedAuthor } from "~/lib/identifiers";
import { cn } from "~/lib/utils";
import { OrcidBadge } from "./orcid";
import { buttonVariants } from "./ui/button";

export interface References {
  apa: string;
  harvard: string;
  bibtex: string;
}

/** The references in APA and Harvard, as selectable text to copy (the item's page and its open record). */
export function ReferenceStyles({ references, className }: { references: Pick<References, "apa" | "harvard">; className?: string }) {
  const { t } = useTranslation();
  return (
    <dl className={cn("grid gap-2 text-sm", className)}>
      {(["apa", "harvard"] as const).map((style) => (
        <div key={style}>
          <dt className="font-medium">{t(style === "apa" ? "content.citeApa" : "content.citeHarvard")}</dt>
          <dd className="select-all break-words text-slate-700" data-testid={`reference-${style}`}>
            {references[style]}
          </dd>
        </div>
      ))}
    </dl>
  );
}

/** "Cite": references to copy (selectable text, no JavaScript needed) and the citation files to download. */
export function CiteItem({ id, version, references }: { id: number; version?: number; references: References }) {
  const { t } = useTranslation();
  return (
    <section className="mt-4 rounded-lg border border-slate-200 bg-white p-4" aria-labelledby="cite-heading" data-testid="cite">
      <h3 id="cite-heading" className="font-medium">
        {t("content.cite")}
      </h3>
      <p className="mb-3 text-sm text-slate-600">{t("content.citeHint")}</p>
      <ReferenceStyles references={references} className="mb-3" />
      <details className="mb-3 text-sm">
        <summary>{t("content.citeBibtex")}</summary>
        <pre className="mt-2 select-all overflow-x-auto whitespace-pre-wrap rounded bg-slate-50 p-2 text-xs" data-testid="bibtex">
          {references.bibtex}
        </pre>
      </details>
      <p className="flex flex-wrap gap-2">
        {(Object.keys(CITATION_FILES) as CitationFile[]).map((format) => (
          <a
            key={format}
            href={`/retrieval/detail/cite?id=${id}&format=${format}${version ? `&version=${version}` : ""}`}
            download
            className={buttonVariants({ variant: "outline", size: "sm" })}
            data-testid={`cite-${format}`}
          >
            {t("content.downloadCitation", { format: t(CITATION_FILES[format].label) })}
          </a>
        ))}
      </p>
    </section>
  );
}

/**
 * The co-authors after the uploader ("With"), or the authors of a work its uploader put up for them
 * (`onBehalf`), each with a link to their ORCID record when they gave one: the iD icon when a member
 * authenticated that iD, else marked unverified (anyone can type an iD).
 */
export function CoAuthors({ authors, onBehalf = false }: { authors: readonly ListedAuthor[]; onBehalf?: boolean }) {
  const { t } = useTranslation();
  if (authors.length === 0) return null;
  return (
    <span data-testid="co-authors">
      {` · ${t(onBehalf ? "content.authorsLead" : "content.coAuthors")} `}
      {authors.map((author, index) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: a list fixed for the render; two authors may share a name
        <span key={index}>
          {index > 0 ? ", " : ""}
          {author.name}
          {author.orcid && author.verified ? <OrcidBadge orcid={author.orcid} name={author.name} /> : null}
          {author.orcid && !author.verified ? (
            <>
              <a
                href={`https://orcid.org/${author.orcid}`}
                className="ml-1 text-xs text-brand underline underline-offset-2"
                aria-label={t("content.orcidLink", { name: author.name })}
              >
                ORCID
              </a>
              <span className="ml-1 text-xs text-slate-600" data-testid="orcid-unverified">
                ({t("content.orcidUnverified")})
              </span>
            </>
          ) : null}
        </span>
      ))}
    </span>
  );
}

/** Highwire Press tags, which reference managers and scholarly search engines read from an item's page. */
export function CitationMeta({
  item,
  pdfUrl,
}: {
  item: {
    title: string;
    owner_name: string;
    authors: readonly Author[];
    on_behalf?: 0 | 1;
    language?: string | null;
    created_at: number;
    doi: string | null;
    published_year: number | null;
  };
  pdfUrl: string | null;
}) {
  // Scholar dates the work by its publication (a year is enough), the upload by its online date.
  const uploaded = new Date(item.created_at).toISOString().slice(0, 10).replaceAll("-", "/");
  return (
    <>
      <meta name="citation_title" content={item.title} />
      {authorsOf(item).map((author, index) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: a list fixed for the render; two authors may share a name
        <meta key={index} name="citation_author" content={author.name} />
      ))}
      <meta name="citation_publication_date" content={item.published_year ? String(item.published_year) : uploaded} />
      <meta name="citation_online_date" content={uploaded} />
      {item.doi ? <meta name="citation_doi" content={item.doi} /> : null}
      {item.language ? <meta name="citation_language" content={item.language} /> : null}
      {pdfUrl ? <meta name="citation_pdf_url" content={pdfUrl} /> : null}
    </>
  );
}
