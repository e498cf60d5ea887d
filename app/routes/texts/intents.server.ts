import { parseWithZod } from "@conform-to/zod/v4";
import { data } from "react-router";
import { findContent } from "~/.server/content/content";
import { acceptSuggestion, removeItemText, requestSuggestion, saveItemText } from "~/.server/content/item-texts";
import { attempt, Refused } from "~/.server/refused";
import { flashRedirect } from "~/.server/web/shell/flash";
import type { Intents } from "~/.server/web/shell/intents";
import { refusalReply } from "~/.server/web/shell/refusals";
import { isLanguage, type Language } from "~/lib/i18n";
import { itemTextSchema } from "~/lib/schemas/content";

// The other-languages page's intents (decision 0050): the owner's title and abstract in a language
// saved, or removed.

/** The owner's item, else 404 (someone else's, or nothing). */
export async function ownItem(id: number, userId: number) {
  const item = Number.isInteger(id) && id > 0 ? await findContent(id, userId) : null;
  if (item?.owner_id !== userId) throw data(null, { status: 404 });
  return item;
}

export interface TextsIntent {
  request: Request;
  form: FormData;
  item: Awaited<ReturnType<typeof ownItem>>;
}

const page = (id: number) => `/retrieval/detail/texts?id=${id}`;

async function save({ request, form, item }: TextsIntent) {
  const submission = parseWithZod(form, { schema: itemTextSchema });
  const lang = String(form.get("lang"));
  if (submission.status !== "success") return data({ lang, result: submission.reply() }, { status: 400 });
  const saved = await attempt(() => saveItemText(item, submission.value.lang, submission.value, Date.now()));
  if (saved instanceof Refused) return data({ lang, result: refusalReply(submission, saved).reply }, { status: 400 });
  return flashRedirect(request, page(item.id), "success", "content.textSaved");
}

/** The language a button names (the page's own forms always name one), else 400. */
function langOf(form: FormData): Language {
  const lang = form.get("lang");
  if (!isLanguage(lang)) throw data(null, { status: 400 });
  return lang;
}

async function remove({ request, form, item }: TextsIntent) {
  await removeItemText(item, langOf(form), Date.now());
  return flashRedirect(request, page(item.id), "success", "content.textRemoved");
}

/** The owner asks a machine for a language's text (where the site offers it): it appears here once its job has run. */
async function suggest({ request, form, item }: TextsIntent) {
  const lang = langOf(form);
  const asked = await attempt(() => requestSuggestion(item, lang, Date.now()));
  if (asked instanceof Refused) return data({ lang, result: refusalReply({ lang }, asked).reply }, { status: asked.status });
  return flashRedirect(request, page(item.id), "success", "content.suggestionAsked");
}

/** The owner accepts a machine's suggestion as it is: shown to readers, labelled a machine translation. */
async function accept({ request, form, item }: TextsIntent) {
  await acceptSuggestion(item, langOf(form), Date.now());
  return flashRedirect(request, page(item.id), "success", "content.suggestionAccepted");
}

export const intents = { save, remove, suggest, accept } satisfies Intents<TextsIntent>;
