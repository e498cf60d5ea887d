import { useTranslation } from "react-i18next";
import { data, Link, redirect } from "react-router";
import { captionCues, captionSet, captionsRead, preferredCaption } from "~/.server/content/captions";
import { fundingOfItems } from "~/.server/content/funding";
import { authorTexts, shownText } from "~/.server/content/item-texts";
import { licenseInfo } from "~/.server/content/licenses";
import { captionFileName, openRecord } from "~/.server/content/open-records";
import { readOne } from "~/.server/reads";
import { askedLanguage, languageOf } from "~/.server/web/i18n/request-language";
import { CitationMeta, ReferenceStyles } from "~/components/cite-item";
import { authorsOf } from "~/lib/authors";
import { languageName } from "~/lib/captions";
import { LANGUAGES } from "~/lib/i18n";
import type { PageHandle } from "~/lib/page-handle";
import { sdgKey } from "~/lib/sdg";
import type { Route } from "./+types/record";
import { landingLinks, linkHeader, openFileUrl } from "./signposts";

// /records/{id}/: an open record (decision 0049), the same page for every reader of a language, with
// no script: what the work is, who made it, how to cite it, and its file where its licence lets
// anyone read it. Liking, commenting and messaging stay for members: the page invites a visitor in.

export const handle: PageHandle = { scripts: false, describes: true };

export async function loader({ request, params }: Route.LoaderArgs) {
  const record = await openRecord(Number(params.id));
  if (record === "gone") throw data(null, { status: 410 });
  if (!record) throw redirect(`/login?redirect=${encodeURIComponent(`/retrieval/detail?id=${Number(params.id) || 0}`)}`);
  const origin = new URL(request.url).origin;
  const home = `${origin}/records/${record.id}/`;
  const file = openFileUrl(record, home);
  const { citeItem } = await import("~/.server/content/citation");
  const funding = (await fundingOfItems([record.id])).get(record.id) ?? [];
  // Cited as the record anyone can open, not the members' page.
  const references = citeItem({ ...record, funding }, home, ["apa", "harvard", "bibtex", "ris"], languageOf(request));
  const item = {
    id: record.id,
    kind: record.kind,
    sdg: record.sdg,
    title: record.title,
    summary: record.summary,
    keywords: record.keywords,
    doi: record.doi,
    version: record.version,
    created_at: record.created_at,
    published_year: record.published_year,
    owner_name: record.owner_name,
    owner_orcid: record.owner_orcid,
    authors: record.authors,
    on_behalf: record.on_behalf,
    language: record.language,
  };
  const license = licenseInfo(record.license);
  const captions = record.kind === "video" && file ? await recordCaptions(record.id, home) : { tracks: [], transcript: null };
  // The reader's language first, as on the members' page (decision 0050); the head keeps the original for citations.
  const texts = (await authorTexts([record.id])).get(record.id) ?? [];
  const wording = shownText(record, texts, languageOf(request));
  return data(
    {
      item,
      license,
      home,
      file,
      thumbnail: `${home}thumbnail`,
      references,
      wording,
      texts: texts.map(({ lang, title }) => ({ lang, title })),
      funding: funding.map(({ funder_name, funder_id, funder_id_type, award_number, award_uri, award_title }) => ({
        funder_name,
        funder_id,
        funder_id_type,
        award_number,
        award_uri,
        award_title,
      })),
      hl: askedLanguage(request),
      ...captions,
    },
    { headers: { Link: linkHeader(landingLinks(record, home, file, license)) } },
  );
}

/** What a transcript in the page's JSON-LD holds at most: a search engine's text, not the whole film's. */
const TRANSCRIPT_CHARS = 20_000;

/**
 * An open video's caption files (in the record's directory) and the text of its English captions, or
 * of the first language it has, as a transcript: shown where its licence lets anyone read the video.
 */
async function recordCaptions(id: number, home: string) {
  const captions = await readOne(captionsRead(id));
  const tracks = captions.map(({ lang }) => ({ lang, url: `${home}${captionFileName(lang)}` }));
  const first = preferredCaption(captions, null, "en");
  const cues = first ? await captionCues(await captionSet(id, first.lang), 0, 2_000) : [];
  const transcript =
    cues
      .map((cue) => cue.text)
      .join(" ")
      .slice(0, TRANSCRIPT_CHARS) || null;
  return { tracks, transcript };
}

/** The signposts (FAIR Signposting) travel with the page. */
export const headers: Route.HeadersFunction = ({ loaderHeaders }) => loaderHeaders;

type Data = Route.ComponentProps["loaderData"];

/** schema.org's description of the work, for search engines that read JSON-LD. */
function linkedData({ item, license, home, file, thumbnail, tracks, transcript, texts, funding }: Data) {
  const people = authorsOf(item).map((author) => ({
    "@type": "Person",
    name: author.name,
    ...(author.orcid ? { sameAs: `https://orcid.org/${author.orcid}` } : {}),
  }));
  const published = item.published_year ? String(item.published_year) : new Date(item.created_at).toISOString().slice(0, 10);
  return {
    "@context": "https://schema.org",
    "@type": item.kind === "document" ? "ScholarlyArticle" : "VideoObject",
    name: item.title,
    [item.kind === "document" ? "abstract" : "description"]: item.summary,
    author: people,
    datePublished: published,
    uploadDate: new Date(item.created_at).toISOString(),
    keywords: item.keywords,
    ...(item.language ? { inLanguage: item.language } : {}),
    // Its owner's translations of the title, each tagged with its language (decision 0050).
    ...(texts.length ? { alternateName: texts.map((text) => ({ "@value": text.title, "@language": text.lang })) } : {}),
    url: home,
    thumbnailUrl: thumbnail,
    version: item.version,
    ...(item.doi ? { identifier: `https://doi.org/${item.doi}` } : {}),
    ...(license?.url ? { license: license.url } : {}),
    ...(file ? (item.kind === "document" ? { encoding: { "@type": "MediaObject", contentUrl: file } } : { contentUrl: file }) : {}),
    ...(tracks.length
      ? {
          caption: tracks.map(({ lang, url }) => ({
            "@type": "MediaObject",
            contentUrl: url,
            encodingFormat: "text/vtt",
            inLanguage: lang,
          })),
        }
      : {}),
    ...(transcript ? { transcript } : {}),
    // Who funded it, as schema.org's grants (decision 0052): the funder by its ROR id where it has one.
    ...(funding.length
      ? {
          funding: funding.map((f) => ({
            "@type": "MonetaryGrant",
            ...(f.award_number ? { identifier: f.award_number } : {}),
            ...(f.award_title ? { name: f.award_title } : {}),
            ...(f.award_uri ? { url: f.award_uri } : {}),
            funder: {
              "@type": "Organization",
              name: f.funder_name,
              ...(f.funder_id_type === "ROR" && f.funder_id ? { "@id": f.funder_id } : {}),
              ...(f.funder_id_type === "Crossref Funder ID" && f.funder_id ? { identifier: `https://doi.org/${f.funder_id}` } : {}),
            },
          })),
        }
      : {}),
  };
}

export default function OpenRecord({ loaderData }: Route.ComponentProps) {
  const { t, i18n } = useTranslation();
  const { item, license, home, file, thumbnail, references, wording } = loaderData;
  const pdfUrl = item.kind === "document" ? file : null;
  return (
    <main className="mx-auto max-w-3xl p-6" data-testid="open-record">
      <title>{`${item.title} - ${t("product.title")}`}</title>
      {/* Each language version is its own page: canonical to itself, and every version named (decision 0050). */}
      <link rel="canonical" href={loaderData.hl ? `${home}?hl=${loaderData.hl}` : home} />
      {LANGUAGES.map((lang) => (
        <link key={lang} rel="alternate" hrefLang={lang} href={`${home}?hl=${lang}`} />
      ))}
      <link rel="alternate" hrefLang="x-default" href={home} />
      <meta name="description" content={item.summary} />
      <CitationMeta item={item} pdfUrl={pdfUrl} />
      <meta name="citation_abstract_html_url" content={home} />
      <meta name="citation_keywords" content={item.keywords} />
      <meta property="og:type" content={item.kind === "document" ? "article" : "video.other"} />
      <meta property="og:title" content={item.title} />
      <meta property="og:description" content={item.summary} />
      <meta property="og:url" content={home} />
      <meta property="og:image" content={thumbnail} />
      <meta name="twitter:card" content="summary_large_image" />
      <script
        type="application/ld+json"
        // biome-ignore lint/security/noDangerouslySetInnerHtml: our own JSON, with "<" escaped so no text closes the element
        dangerouslySetInnerHTML={{ __html: JSON.stringify(linkedData(loaderData)).replaceAll("<", "\\u003c") }}
      />
      <p className="text-sm text-slate-600">
        {item.sdg}. {t(sdgKey(item.sdg))}
      </p>
      <h1 className="mt-1 text-2xl font-semibold" lang={wording.lang ?? undefined}>
        {wording.title}
      </h1>
      {wording.source === "original" ? null : (
        <p className="text-sm text-slate-600" data-testid="record-wording">
          {t("content.byAuthor")} · <span lang={item.language ?? undefined}>{item.title}</span>
        </p>
      )}
      <p className="mt-2 text-sm" data-testid="record-authors">
        {authorsOf(item).map((author, index) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: a list fixed for the render; two authors may share a name
          <span key={index}>
            {index > 0 ? ", " : ""}
            {author.orcid ? <a href={`https://orcid.org/${author.orcid}`}>{author.name}</a> : author.name}
          </span>
        ))}
      </p>
      <h2 className="mt-4 font-medium">{t("fields.summary")}</h2>
      <p className="whitespace-pre-line" lang={wording.lang ?? undefined}>
        {wording.summary}
      </p>
      <dl className="mt-4 grid grid-cols-[max-content_1fr] gap-x-4 gap-y-1 text-sm">
        <dt className="font-medium">{t("fields.keywords")}</dt>
        <dd>{item.keywords}</dd>
        <dt className="font-medium">{t("content.license")}</dt>
        <dd data-testid="record-license">
          {license?.url ? (
            <a href={license.url} rel="license">
              {license.name}
            </a>
          ) : license?.name ? (
            license.name
          ) : (
            t(license ? "content.allRightsReserved" : "content.licenseNotSpecified")
          )}
        </dd>
        {item.doi ? (
          <>
            <dt className="font-medium">{t("fields.doi")}</dt>
            <dd>
              <a href={`https://doi.org/${item.doi}`}>{item.doi}</a>
            </dd>
          </>
        ) : null}
        {item.published_year ? (
          <>
            <dt className="font-medium">{t("fields.year")}</dt>
            <dd>{item.published_year}</dd>
          </>
        ) : null}
        <dt className="font-medium">{t("content.versions")}</dt>
        <dd>{item.version}</dd>
      </dl>
      <p className="mt-4">
        {file ? (
          <a href={file} className="font-medium text-brand underline" data-testid="record-file">
            {t(item.kind === "document" ? "record.readPdf" : "record.watchVideo")}
          </a>
        ) : (
          <span data-testid="record-file-members">{t("record.fileForMembers")}</span>
        )}
      </p>
      {loaderData.tracks.length ? (
        <p className="mt-1 text-sm" data-testid="record-captions">
          {t("record.captions")}{" "}
          {loaderData.tracks.map(({ lang, url }, index) => (
            <span key={lang}>
              {index > 0 ? " · " : ""}
              <a href={url} hrefLang={lang} className="text-brand underline">
                {languageName(lang, i18n.language)}
              </a>
            </span>
          ))}
        </p>
      ) : null}
      <h2 className="mt-6 font-medium">{t("content.cite")}</h2>
      <ReferenceStyles references={references} className="mt-2" />
      {(["bibtex", "ris"] as const).map((format) => (
        <details key={format} className="mt-2 text-sm">
          <summary>{format === "bibtex" ? t("content.citeBibtex") : "RIS"}</summary>
          <pre className="mt-1 overflow-x-auto whitespace-pre-wrap rounded bg-slate-50 p-2 text-xs">{references[format]}</pre>
        </details>
      ))}
      <p className="mt-8 rounded border border-slate-200 bg-white p-4 text-sm" data-testid="record-join">
        {t("record.join")}{" "}
        <Link to="/signup" className="text-brand underline">
          {t("record.signUp")}
        </Link>{" "}
        ·{" "}
        <Link to={`/login?redirect=${encodeURIComponent(`/retrieval/detail?id=${item.id}`)}`} className="text-brand underline">
          {t("record.signIn")}
        </Link>
      </p>
    </main>
  );
}
