import { data } from "react-router";
import { prefillFromDoi } from "~/.server/content/doi-prefill";
import { attempt, Refused } from "~/.server/refused";
import { authorsText } from "~/lib/identifiers";
import type { FormReply } from "~/lib/use-form";
import { refusalReply } from "./refusals";

/**
 * A form filled in from the DOI among `typed` (nothing saved): the record's fields over what was
 * typed, or what was typed untouched with the reason beside the DOI.
 */
export async function prefilledForm(typed: Record<string, string>, memberId: number) {
  const filled = await attempt(() => prefillFromDoi(typed.doi ?? "", memberId));
  if (filled instanceof Refused) return { result: refusalReply(typed, filled).reply, notice: null };
  const result: FormReply = {
    initialValue: {
      ...typed,
      doi: filled.doi,
      ...(filled.title ? { title: filled.title } : {}),
      ...(filled.authors.length ? { authors: authorsText(filled.authors) } : {}),
      ...(filled.summary ? { summary: filled.summary } : {}),
      ...(filled.keywords ? { keywords: filled.keywords } : {}),
      ...(filled.year ? { year: String(filled.year) } : {}),
    },
    filled: true,
  };
  return { result, notice: "notify.doiFilled" };
}

/** The upload and edit forms' "Fill from DOI" button: the posted form, filled in (400 when refused). */
export async function doiPrefillReply(form: FormData, memberId: number) {
  const typed: Record<string, string> = {};
  for (const [name, value] of form) if (typeof value === "string" && name !== "intent") typed[name] = value;
  const answer = await prefilledForm(typed, memberId);
  return data(answer, { status: answer.result.status === "error" ? 400 : 200 });
}
