import Download from "lucide-react/icons/download";
import { useTranslation } from "react-i18next";
import { data, Link } from "react-router";
import { config } from "~/.server/config/config";
import {
  type CaptionSet,
  captionCues,
  captionSetsRead,
  captionsRead,
  preferredCaption,
  transcriptPageAt,
} from "~/.server/content/captions";
import { findContentFor, shownItem } from "~/.server/content/content";
import { textStateRead } from "~/.server/content/document-text";
import { fundingRead } from "~/.server/content/funding";
import { itemTextsRead, shownText } from "~/.server/content/item-texts";
import { licenseInfo } from "~/.server/content/licenses";
import { askedVersion, versionsRead } from "~/.server/content/versions";
import { translator } from "~/.server/i18n/translate";
import { known, readTogether } from "~/.server/reads";
import { socialRead } from "~/.server/social/social";
import { countReading, readingOf } from "~/.server/stats/readings";
import { requireUser } from "~/.server/web/auth/session";
import { afterAnswer } from "~/.server/web/context";
import { languageOf } from "~/.server/web/i18n/request-language";
import { agentOf } from "~/.server/web/readings";
import { runIntent } from "~/.server/web/shell/intents";
import { isPrefetch } from "~/.server/web/shell/prefetch";
import { CitationMeta, CiteItem, CoAuthors } from "~/components/cite-item";
import { OrcidBadge } from "~/components/orcid";
import { RelativeTime } from "~/components/relative-time";
import { ReportForm } from "~/components/report-form";
import { RouteError } from "~/components/route-error";
import { TextStateNote } from "~/components/text-state-note";
import { buttonVariants } from "~/components/ui/button";
import { type CaptionInfo, captionFileUrl, languageName } from "~/lib/captions";
import { itemUrl } from "~/lib/citations";
import { doiUrl } from "~/lib/identifiers";
import { SCHOLAR_PDF_BYTES, TRANSCRIPT_PAGE_CUES } from "~/lib/limits";
import type { PageHandle } from "~/lib/page-handle";
import { sdgKey, sdgStyle } from "~/lib/sdg";
import { cn } from "~/lib/utils";
import type { Route } from "./+types/route";
import { FundingLine } from "./funding-line";
import { intents } from "./intents.server";
import { LicenseLine } from "./license-line";
import { OwnerActions } from "./owner-actions";
import { PdfViewer } from "./pdf-viewer";
import { Social } from "./social";
import { Transcript } from "./transcript";
import { fileUrlOf, VersionLine, VersionList } from "./versions";
import { Wording } from "./wording";

const idOf = (request: Request) => Number(new URL(request.url).searchParams.get("id"));

// The transcript seeks the player, the PDF viewer opens after load, "@" suggests names (docs/decisions/0046).
export const handle: PageHandle = { modules: ["item"] };

export async function loader({ request, context }: Route.LoaderArgs) {
  const user = requireUser(request, context);
  const id = idOf(request);
  const found = Number.isInteger(id) && id > 0 ? await findContentFor(id, user) : null;
  if (!found) throw data(null, { status: 404 });
  // A moderator opening a hidden upload to decide on it reads it only: no view counted, no like or comment.
  const { item, moderating } = found;
  const now = Date.now();
  const isOwner = item.owner_id === user.id;
  // What the page shows beside the item, in one round trip; the member's view is counted after the
  // answer, through the stats queue (decision 0039): the figure shown is at most a few seconds late.
  // An earlier version, when the link asks for one (its own file, a banner saying a newer one exists).
  const version = await askedVersion(item, new URL(request.url).searchParams.get("version"));
  if (version === undefined) throw data(null, { status: 404 });
  // A video's captions are its latest version's: an earlier one plays without them (decision 0043).
  const captioned = item.kind === "video" && !version;
  const [social, text, versions, captions, sets, texts, funding] = await readTogether([
    socialRead(user.id, item.id, item.owner_id),
    isOwner ? textStateRead(item.id) : known(null),
    versionsRead(item.id),
    captioned ? captionsRead(item.id) : known([]),
    captioned ? captionSetsRead(item.id) : known(new Map<string, CaptionSet>()),
    itemTextsRead(item.id),
    fundingRead(item.id),
  ] as const);
  // The title and abstract in the reader's language when the item has them, unless the original is asked for (decision 0050).
  const inReaders = shownText(item, version ? [] : texts, languageOf(request));
  const wording = new URL(request.url).searchParams.get("text") === "original" ? shownText(item, [], languageOf(request)) : inReaders;
  if (!moderating && !isPrefetch(request)) countReading(readingOf("view", item, user, agentOf(request), now), afterAnswer(context));
  // A search result found in the document's text opens it at that page; one in a video's captions at that second.
  const page = Number(new URL(request.url).searchParams.get("page"));
  const transcript = await transcriptOf(sets, captions, new URL(request.url).searchParams, languageOf(request));
  // A fresh key for the comment form on every render: its submission is stored once however often it arrives.
  const commentKey = crypto.randomUUID();
  const { asVersion, citeItem } = await import("~/.server/content/citation");
  const cited = { ...(version ? asVersion(item, version) : item), funding };
  const origin = new URL(request.url).origin;
  return {
    item: shownItem(item),
    wording,
    // The other reading: the original beside a translation, or the reader's language beside the original.
    otherWording:
      wording.source !== "original"
        ? { lang: item.language, original: true }
        : inReaders.source !== "original"
          ? { lang: inReaders.lang, original: false }
          : null,
    license: licenseInfo(item.license),
    references: citeItem(cited, itemUrl(origin, item.id, version?.number), ["apa", "harvard", "bibtex"], languageOf(request)),
    pdfUrl: item.kind === "document" ? `${origin}${fileUrlOf(item.id, version?.number)}` : null,
    // Its open record, where the site allows them and the owner opened it (decision 0049).
    recordUrl: item.open_record && item.publicize && config().openRecords ? `/records/${item.id}/` : null,
    // The owner learns when their open PDF is too large for Scholar to read whole.
    largePdf: isOwner && item.open_record === 1 && config().openRecords && item.kind === "document" && item.file_size > SCHOLAR_PDF_BYTES,
    versions,
    // Who funded it, as its owner named them, but for a funder's decline (decision 0052).
    funding: funding.filter((f) => f.state !== "declined"),
    captionCount: captions.length,
    tracks: tracksOf(item.id, captions, transcript.lang, languageOf(request)),
    transcript: { at: transcript.at, view: transcript.view, captions },
    shownVersion: version ? { number: version.number, title: version.title, license: licenseInfo(version.license) } : null,
    isOwner,
    moderating,
    text,
    page: item.kind === "document" && Number.isInteger(page) && page > 1 ? page : null,
    userId: user.id,
    social,
    now,
    commentKey,
    // "Reply" is a link (no script needed): the comment form answers this comment.
    replyTo: Number(new URL(request.url).searchParams.get("reply")) || null,
    // So is "Comment on a passage": the form takes a passage (decision 0051).
    passage: new URL(request.url).searchParams.get("passage") === "1",
  };
}

/**
 * The transcript a video's page shows (decision 0043): the language asked for, else the reader's;
 * the part of it holding the second asked for (`t`), else the part asked for (`tp`).
 */
async function transcriptOf(sets: Map<string, CaptionSet>, captions: CaptionInfo[], params: URLSearchParams, reader: string) {
  const chosen = preferredCaption(captions, params.get("lang"), reader);
  const second = Number(params.get("t") ?? Number.NaN);
  const at = Number.isInteger(second) && second >= 0 ? second : null;
  if (!chosen) return { at, lang: null, view: null };
  const pages = Math.max(1, Math.ceil(chosen.cue_count / TRANSCRIPT_PAGE_CUES));
  const { lang } = chosen;
  const set = sets.get(lang) ?? null;
  if (at !== null) {
    const { page, cues } = await transcriptPageAt(set, at * 1000, TRANSCRIPT_PAGE_CUES, pages);
    return { at, lang, view: { lang, page, pages, cues } };
  }
  const asked = Number(params.get("tp"));
  const page = Math.min(pages, Number.isInteger(asked) && asked >= 1 ? asked : 1);
  const cues = await captionCues(set, (page - 1) * TRANSCRIPT_PAGE_CUES, TRANSCRIPT_PAGE_CUES);
  return { at, lang, view: { lang, page, pages, cues } };
}

/** The player's tracks, the shown language first (players list them in the order given), labelled in the reader's language. */
function tracksOf(id: number, captions: CaptionInfo[], shown: string | null, reader: string) {
  const t = translator(reader);
  return [...captions.filter((c) => c.lang === shown), ...captions.filter((c) => c.lang !== shown)].map((c) => ({
    lang: c.lang,
    label: `${languageName(c.lang, reader)}${c.source === "automatic" ? ` (${t("content.captionsAutomatic")})` : ""}`,
    src: captionFileUrl(id, c.lang),
    shown: c.lang === shown,
  }));
}

export async function action({ request, context }: Route.ActionArgs) {
  const user = requireUser(request, context);
  const id = idOf(request);
  const form = await request.formData();
  return runIntent(intents, form.get("intent"), { request, form, id, userId: user.id });
}

/** A document or video: its viewer, the facts about it, and (for its owner) delete. */
export default function ContentDetail({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const { item, isOwner, now, wording } = loaderData;
  const shown = loaderData.shownVersion;
  const fileUrl = fileUrlOf(item.id, shown?.number);
  const thumbnailUrl = `/files/${item.id}/thumbnail?${shown ? `version=${shown.number}&` : ""}w=800`;
  const pdfAt = loaderData.page ? `${fileUrl}#page=${loaderData.page}` : fileUrl;
  return (
    <article className="mx-auto max-w-4xl" data-testid="content-detail">
      <title>{`${item.title} - ${t("product.title")}`}</title>
      <CitationMeta item={item} pdfUrl={loaderData.pdfUrl} />
      {item.hidden_at ? (
        <p role="status" className="mb-4 rounded border border-amber-300 bg-amber-50 p-3 text-sm" data-testid="hidden-note">
          {loaderData.moderating ? t("safety.hiddenModeratorView") : t("safety.hiddenByModerator")}
        </p>
      ) : null}
      <header className="mb-4">
        <p className="mb-2 flex flex-wrap items-center gap-2 text-xs">
          <span className="rounded px-2 py-0.5 font-medium" style={sdgStyle(item.sdg)} data-testid="sdg">
            {item.sdg}. {t(sdgKey(item.sdg))}
          </span>
          {item.publicize ? null : <span className="rounded bg-slate-200 px-2 py-0.5">{t("content.privateBadge")}</span>}
        </p>
        <h2 className="text-2xl font-semibold" data-testid="content-title" lang={wording.lang ?? undefined}>
          {wording.title}
        </h2>
        <p className="mt-1 text-sm text-slate-500">
          <Link to={`/personal?member=${item.owner_id}`} className="text-brand underline underline-offset-2">
            {t(item.on_behalf ? "content.uploadedBy" : "content.by", { name: item.owner_name })}
          </Link>
          {item.owner_orcid ? <OrcidBadge orcid={item.owner_orcid} name={item.owner_name} /> : null}
          <CoAuthors authors={item.authors} onBehalf={item.on_behalf === 1} />
          {item.doi ? (
            <>
              {" · "}
              <a href={doiUrl(item.doi)} className="text-brand underline underline-offset-2" data-testid="doi">
                doi:{item.doi}
              </a>
            </>
          ) : null}{" "}
          · <RelativeTime date={new Date(item.created_at)} now={new Date(now)} /> ·{" "}
          <span data-testid="views">{t("content.views", { count: item.views })}</span> · {t("content.likes", { count: item.likes })}
        </p>
        <Wording id={item.id} source={wording.source} other={loaderData.otherWording} />
        <LicenseLine license={shown ? shown.license : loaderData.license} />
        {loaderData.funding.length ? <FundingLine funding={loaderData.funding} /> : null}
        {loaderData.recordUrl ? (
          <p className="text-sm">
            <a href={loaderData.recordUrl} className="text-brand underline" data-testid="record-link">
              {t("content.openRecordLink")}
            </a>
          </p>
        ) : null}
        {loaderData.largePdf ? (
          <p className="text-sm text-amber-800" data-testid="large-pdf">
            {t("content.largePdf", { size: SCHOLAR_PDF_BYTES / 1024 / 1024 })}
          </p>
        ) : null}
        <VersionLine versions={loaderData.versions} shown={shown?.number ?? item.version} id={item.id} />
      </header>
      {/* A phone with script gets no PDF frame (see PdfViewer): the links below open or download the file. */}
      <div
        className={cn(
          "mb-4 overflow-hidden rounded-lg border border-slate-200 bg-black/90",
          item.kind === "document" && "max-md:[@media(scripting:enabled)]:hidden",
        )}
      >
        {item.kind === "video" ? (
          // biome-ignore lint/a11y/useMediaCaption: a video has caption tracks once its owner (or the speech-to-text job) adds them
          <video
            controls
            preload="metadata"
            poster={thumbnailUrl}
            src={loaderData.transcript.at !== null ? `${fileUrl}#t=${loaderData.transcript.at}` : fileUrl}
            className="aspect-video w-full"
            data-testid="video"
          >
            {loaderData.tracks.map((track) => (
              <track key={track.lang} kind="captions" srcLang={track.lang} label={track.label} src={track.src} default={track.shown} />
            ))}
          </video>
        ) : (
          <PdfViewer src={pdfAt} title={item.title} fallback={t("content.noPdfViewer")} />
        )}
      </div>
      <p className="mb-4 flex gap-2">
        <a
          href={`${fileUrl}${shown ? "&" : "?"}download`}
          className={buttonVariants({ variant: "outline", size: "sm" })}
          data-testid="download"
        >
          <Download className="size-4" aria-hidden />
          {t("content.download")}
        </a>
        {item.kind === "document" ? (
          <a
            href={pdfAt}
            target="_blank"
            rel="noopener"
            className={buttonVariants({ variant: "ghost", size: "sm" })}
            data-testid="open-pdf"
          >
            {t("content.openPdf")}
          </a>
        ) : null}
      </p>
      {loaderData.text ? <TextStateNote text={loaderData.text} /> : null}
      {loaderData.transcript.view ? (
        <Transcript id={item.id} captions={loaderData.transcript.captions} view={loaderData.transcript.view} />
      ) : null}
      <section className="grid gap-4 rounded-lg border border-slate-200 bg-white p-4 sm:grid-cols-[160px_1fr]">
        <img
          src={`${fileUrl}/thumbnail?w=400`}
          width={160}
          height={90}
          alt=""
          loading="lazy"
          className="aspect-video w-40 rounded border border-slate-200 object-cover"
        />
        <div>
          <h3 className="font-medium">{t("content.summary")}</h3>
          <p className="mb-3 whitespace-pre-wrap text-slate-700" data-testid="summary" lang={wording.lang ?? undefined}>
            {wording.summary}
          </p>
          <h3 className="font-medium">{t("content.content")}</h3>
          <p className="mb-3 whitespace-pre-wrap text-slate-700">{item.content}</p>
          <ul className="flex flex-wrap gap-1" aria-label={t("content.keywords")}>
            {item.keywords
              .split(/[,、，]/)
              .map((k) => k.trim())
              .filter(Boolean)
              .map((keyword) => (
                <li key={keyword} className="rounded-full bg-slate-100 px-2 py-0.5 text-xs">
                  {keyword}
                </li>
              ))}
          </ul>
        </div>
      </section>
      <CiteItem id={item.id} version={shown?.number} references={loaderData.references} />
      <VersionList versions={loaderData.versions} shown={shown?.number ?? item.version} id={item.id} />
      {isOwner || loaderData.moderating ? null : <ReportForm target="content" id={item.id} />}
      {loaderData.moderating ? null : <Social data={loaderData} actionData={actionData} />}
      {isOwner ? (
        <OwnerActions
          id={item.id}
          latest={!shown}
          video={item.kind === "video"}
          captionCount={loaderData.captionCount}
          confirmDelete={Boolean(actionData?.confirmDelete)}
        />
      ) : null}
    </article>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <RouteError error={error} />;
}
