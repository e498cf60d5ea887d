import { useTranslation } from "react-i18next";
import type { TextState } from "~/lib/document-text";
import { PDF_TEXT_MAX_MB } from "~/lib/limits";

const NOTE_KEYS = {
  "no-text": "content.text.noText",
  encrypted: "content.text.encrypted",
  broken: "content.text.broken",
  "too-large": "content.text.tooLarge",
  failed: "content.text.failed",
} as const;

/** Whether search can find the owner's document by its text, and if not, why. */
export function TextStateNote({ text }: { text: TextState }) {
  const { t } = useTranslation();
  const message =
    text.state === "pending"
      ? t("content.text.pending")
      : text.state === "done"
        ? text.pages === text.page_count
          ? t("content.text.done", { count: text.pages ?? 0 })
          : t("content.text.partial", { pages: text.pages, total: text.page_count })
        : t(NOTE_KEYS[text.note ?? "failed"], { mb: PDF_TEXT_MAX_MB });
  return (
    <p role="status" className="mb-4 rounded border border-slate-200 bg-slate-50 p-3 text-sm text-slate-700" data-testid="text-state">
      {message}
    </p>
  );
}
