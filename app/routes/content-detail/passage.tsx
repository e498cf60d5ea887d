import { useTranslation } from "react-i18next";
import { Field, TextAreaField } from "~/components/ui/field";
import { clockTime } from "~/lib/captions";
import type { CommentRow } from "~/lib/shapes";
import { type FieldMetadata, getInputProps, getTextareaProps } from "~/lib/use-form";
import { fileUrlOf } from "./versions";

// Comments on a passage (docs/decisions/0051). The comment form takes a passage once the member
// asks to ("Comment on a passage", a link, as "Reply" is): a page and the words quoted (or a video's
// moment), which the server finds. With JavaScript the item's module (app/enhance/item.ts) shows
// the quoting view beside them and fills them from words selected there or lines of the transcript,
// and a quote's link opens that view at its page with the words marked.

const PASSAGE_FIELDS = ["page", "quote", "prefix", "suffix", "at", "until"] as const;
type PassageField = (typeof PASSAGE_FIELDS)[number];
type PassageFieldsOf = Record<PassageField, FieldMetadata>;

const stated = (field: FieldMetadata) => typeof field.initialValue === "string" && field.initialValue !== "";

/** Whether the form shows the passage: asked for, or a post with one came back refused. */
export const showsPassage = (asked: boolean, fields: PassageFieldsOf) =>
  asked || PASSAGE_FIELDS.some((name) => stated(fields[name]) || Boolean(fields[name].errors?.length));

/** The link that opens the form's passage. */
export function PassageLink({ id }: { id: number }) {
  const { t } = useTranslation();
  return (
    <a href={`/retrieval/detail?id=${id}&passage=1#comment-form`} className={`mb-2 inline-block text-sm ${link}`}>
      {t("content.passage")}
    </a>
  );
}

/** The passage's fields, and the way back to a comment on the whole work. */
export function PassageFields({ id, kind, fields }: { id: number; kind: string; fields: PassageFieldsOf }) {
  const { t } = useTranslation();
  const hidden = (name: "prefix" | "suffix") => (
    <input type="hidden" name={fields[name].name} defaultValue={stated(fields[name]) ? String(fields[name].initialValue) : ""} />
  );
  return (
    <fieldset className="mb-3 rounded-md border border-slate-200 px-3 py-2" data-passage={kind} data-src={`/files/${id}`}>
      <legend className="text-sm font-medium">{t("content.passage")}</legend>
      <p className="mb-2 text-xs text-slate-500">
        {t(kind === "video" ? "content.passageCue" : "content.passageSelect")}{" "}
        <a href={`/retrieval/detail?id=${id}#comment-form`} className={link}>
          {t("content.passageCancel")}
        </a>
      </p>
      {kind === "video" ? (
        <div className="flex gap-3">
          <Field label={t("content.passageFrom")} errors={fields.at.errors} {...getInputProps(fields.at, { type: "text" })} />
          <Field label={t("content.passageUntil")} errors={fields.until.errors} {...getInputProps(fields.until, { type: "text" })} />
        </div>
      ) : (
        <>
          <Field
            label={t("content.passagePage")}
            errors={fields.page.errors}
            {...getInputProps(fields.page, { type: "text" })}
            inputMode="numeric"
            className="w-24"
          />
          <div data-passage-pages />
          <TextAreaField label={t("content.passageQuote")} errors={fields.quote.errors} {...getTextareaProps(fields.quote)} rows={2} />
          {hidden("prefix")}
          {hidden("suffix")}
        </>
      )}
    </fieldset>
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
          data-prefix={earlier ? undefined : anchor.prefix}
          data-suffix={earlier ? undefined : anchor.suffix}
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
