import { useTranslation } from "react-i18next";
import { type CaptionInfo, clockTime, languageName, type ShownCue } from "~/lib/captions";

// A video's transcript (decision 0043): links and text only. With JavaScript, the item's module
// (app/enhance/item.ts) makes a line's link seek the player on the page instead of loading it again;
// without, the link opens the page with the player starting at that second.

export interface TranscriptView {
  lang: string;
  page: number;
  pages: number;
  cues: ShownCue[];
}

/** The transcript of one language, in the reader's language. */
export function Transcript({ id, captions, view }: { id: number; captions: CaptionInfo[]; view: TranscriptView }) {
  return (
    <section aria-labelledby="transcript-heading" className="mb-4 rounded-lg border border-slate-200 bg-white p-4" data-testid="transcript">
      <TranscriptBody id={id} captions={captions} view={view} />
    </section>
  );
}

/** Where a transcript line leads: this page at that second (the player starts there), `#t=` for the eye and for scripts. */
const secondUrl = (id: number, lang: string, second: number) =>
  `/retrieval/detail?id=${id}&lang=${encodeURIComponent(lang)}&t=${second}#t=${second}`;

const link = "text-brand underline underline-offset-2";

/** Each cue with its time, a link to that second; the other languages; long ones in parts. */
function TranscriptBody({ id, captions, view }: { id: number; captions: CaptionInfo[]; view: TranscriptView }) {
  const { t, i18n } = useTranslation();
  const reader = i18n.language;
  const base = `/retrieval/detail?id=${id}&lang=${encodeURIComponent(view.lang)}`;
  return (
    <>
      <h3 id="transcript-heading" className="font-medium">
        {t("content.transcript", { language: languageName(view.lang, reader) })}
      </h3>
      {captions.length > 1 ? (
        <nav aria-label={t("content.transcriptLanguages")} className="mt-1 text-sm">
          <ul className="flex flex-wrap gap-3">
            {captions.map((c) => (
              <li key={c.lang}>
                <a
                  href={`/retrieval/detail?id=${id}&lang=${encodeURIComponent(c.lang)}`}
                  aria-current={c.lang === view.lang ? "true" : undefined}
                  className={`${link} aria-[current]:font-semibold aria-[current]:no-underline`}
                >
                  {languageName(c.lang, reader)}
                </a>
              </li>
            ))}
          </ul>
        </nav>
      ) : null}
      <ol className="mt-2 max-h-96 overflow-y-auto text-sm" lang={view.lang}>
        {view.cues.map((cue) => {
          const second = Math.floor(cue.start_ms / 1000);
          return (
            <li key={cue.id} className="flex gap-3 py-0.5">
              <a
                href={secondUrl(id, view.lang, second)}
                data-t={second}
                className={`shrink-0 font-mono ${link}`}
                data-testid="transcript-time"
              >
                {clockTime(second)}
              </a>
              <span className="whitespace-pre-line text-slate-700">{cue.text}</span>
            </li>
          );
        })}
      </ol>
      {view.pages > 1 ? (
        <p className="mt-2 flex gap-3 text-sm">
          {view.page > 1 ? (
            <a href={`${base}&tp=${view.page - 1}`} className={link}>
              {t("content.transcriptEarlier")}
            </a>
          ) : null}
          <span>{t("content.transcriptPage", { page: view.page, pages: view.pages })}</span>
          {view.page < view.pages ? (
            <a href={`${base}&tp=${view.page + 1}`} className={link}>
              {t("content.transcriptLater")}
            </a>
          ) : null}
        </p>
      ) : null}
    </>
  );
}
