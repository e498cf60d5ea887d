import { useTranslation } from "react-i18next";
import { Field, TextAreaField } from "~/components/ui/field";
import { clockTime } from "~/lib/captions";
import type { CommentRow } from "~/lib/shapes";
import { type FieldMetadata, getInputProps, getTextareaProps } from "~/lib/use-form";
import { fileUrlOf } from "./versions";

// Comments on a passage (docs/decisions/0051). Without JavaScript the comment form takes a page
// and the words quoted (or a video's moment) and the server finds them; with it, the item's module
// (app/enhance/item.ts) fills these fields from words selected in the quoting view or a line of
// the transcript, and a quote's link opens that view at its page with the words marked.

const PASSAGE_FIELDS = ["page", "quote", "prefix", "suffix", "at", "until"] as const;
type PassageField = (typeof PASSAGE_FIELDS)[number];

const stated = (field: FieldMetadata) => typeof field.initialValue === "string" && field.initialValue !== "";

/** The passage's fields, folded away unless the form comes back with one of them filled in. */
export function PassageFields({ kind, src, fields }: { kind: string; src: string; fields: Record<PassageField, FieldMetadata> }) {
  const { t } = useTranslation();
  const open = PASSAGE_FIELDS.some((name) => stated(fields[name]) || Boolean(fields[name].errors?.length));
  return (
    <details className="mb-3 rounded-md border border-slate-200 px-3 py-2" open={open} data-passage={kind} data-src={src}>
      <summary className="cursor-pointer text-sm font-medium">{t("content.passage")}</summary>
      <p className="mb-2 text-xs text-slate-500">{t("content.passageHelp")}</p>
      {kind === "video" ? (
        <>
          <p className="mb-2 text-xs text-slate-500 [@media(scripting:none)]:hidden">{t("content.passageCue")}</p>
          <div className="flex gap-3">
            <Field label={t("content.passageFrom")} errors={fields.at.errors} {...getInputProps(fields.at, { type: "text" })} />
            <Field label={t("content.passageUntil")} errors={fields.until.errors} {...getInputProps(fields.until, { type: "text" })} />
          </div>
        </>
      ) : (
        <>
          <Field
            label={t("content.passagePage")}
            errors={fields.page.errors}
            {...getInputProps(fields.page, { type: "text" })}
            inputMode="numeric"
            className="w-24"
          />
          <p className="mb-2 text-xs text-slate-500 [@media(scripting:none)]:hidden">{t("content.passageSelect")}</p>
          <div data-passage-pages />
          <TextAreaField label={t("content.passageQuote")} errors={fields.quote.errors} {...getTextareaProps(fields.quote)} rows={2} />
          <input type="hidden" name={fields.prefix.name} defaultValue={stated(fields.prefix) ? String(fields.prefix.initialValue) : ""} />
          <input type="hidden" name={fields.suffix.name} defaultValue={stated(fields.suffix) ? String(fields.suffix.initialValue) : ""} />
        </>
      )}
    </details>
  );
}

const link = "text-brand underline underline-offset-2";

/** The passage a comment is on, quoted, with a link to it; a passage of an earlier version says so and leads there. */
export function CommentPassage({ comment, item }: { comment: CommentRow; item: { id: number; version: number } }) {
  const { t } = useTranslation();
  const { anchor, anchor_version: version } = comment;
  if (!anchor) return null;
  const earlier = version !== null && version < item.version ? version : undefined;
  const note = earlier ? (
    <span className="text-xs text-amber-800" data-testid="earlier-version">
      {" "}
      · {t("content.earlierVersion", { number: earlier })}
    </span>
  ) : null;
  if ("page" in anchor) {
    return (
      <blockquote className="mb-1 border-l-4 border-amber-300 bg-amber-50 px-2 py-1" data-testid="comment-quote">
        <a
          href={`${fileUrlOf(item.id, earlier)}#page=${anchor.page}`}
          className={`text-xs ${link}`}
          data-quote-page={earlier ? undefined : anchor.page}
          data-exact={anchor.exact}
          data-prefix={anchor.prefix}
          data-suffix={anchor.suffix}
        >
          {t("content.quotePage", { page: anchor.page })}
        </a>
        {note}
        <q className="block whitespace-pre-wrap">{anchor.exact}</q>
      </blockquote>
    );
  }
  const second = Math.floor(anchor.start);
  const range = `${anchor.start}${anchor.end === null ? "" : `,${anchor.end}`}`;
  const moment = `${clockTime(anchor.start)}${anchor.end === null ? "" : `–${clockTime(anchor.end)}`}`;
  return (
    <p className="mb-1 border-l-4 border-amber-300 bg-amber-50 px-2 py-1 text-xs" data-testid="comment-quote">
      <a
        href={`/retrieval/detail?id=${item.id}${earlier ? `&version=${earlier}` : ""}&t=${second}#t=${range}`}
        className={link}
        data-t={earlier ? undefined : second}
      >
        {t("content.quoteMoment", { time: moment })}
      </a>
      {note}
    </p>
  );
}
