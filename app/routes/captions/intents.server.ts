import { data } from "react-router";
import { removeCaptions, saveOwnerCaptions } from "~/.server/content/captions";
import { findContent } from "~/.server/content/content";
import { readCappedBytes } from "~/.server/http/body";
import { attempt, Refused } from "~/.server/refused";
import { flashRedirect } from "~/.server/web/shell/flash";
import type { Intents } from "~/.server/web/shell/intents";
import { refusalReply } from "~/.server/web/shell/refusals";
import { captionLang } from "~/lib/captions";
import { CAPTIONS_MAX_BYTES } from "~/lib/limits";

// The captions page's intents (decision 0043): a caption file for a language, or a language removed.

/** The owner's video, else 404 (someone else's, a document, or nothing). */
export async function ownVideo(id: number, userId: number) {
  const item = Number.isInteger(id) && id > 0 ? await findContent(id, userId) : null;
  if (item?.owner_id !== userId || item.kind !== "video") throw data(null, { status: 404 });
  return item;
}

/** Room for a caption form's other fields and multipart framing beside its file. */
const CAPTION_FORM_SLACK = 16 * 1024;

export interface CaptionsIntent {
  request: Request;
  form: FormData;
  /** The owner's video. */
  id: number;
}

/**
 * The page's post, read whole but bounded (a caption file is at most CAPTIONS_MAX_BYTES): past it,
 * refused beside the file; not a form at all, a 400.
 */
export async function postedForm(request: Request) {
  const bytes = await readCappedBytes(request, CAPTIONS_MAX_BYTES + CAPTION_FORM_SLACK);
  if (!bytes) throw new Refused(`content.captionsTooLarge|max=${CAPTIONS_MAX_BYTES / 1024 / 1024}`, { field: "captions", status: 413 });
  const form = await new Request(request.url, { method: "POST", headers: request.headers, body: bytes }).formData().catch(() => null);
  if (!form) throw data(null, { status: 400 });
  return form;
}

/** The form again with a refusal beside its field (the parser's line and reason beside the file). */
export function captionsRefused(refusal: Refused) {
  const { reply, status } = refusalReply(undefined, refusal);
  return data({ captions: reply }, { status });
}

/** The owner's caption file for a language (decision 0043): stored, replacing that language's. */
async function captions({ request, form, id }: CaptionsIntent) {
  const file = form.get("captions");
  const bytes = file instanceof File ? new Uint8Array(await file.arrayBuffer()) : new Uint8Array();
  const saved = await attempt(() => saveOwnerCaptions(id, String(form.get("lang") ?? ""), bytes, Date.now()));
  if (saved instanceof Refused) return captionsRefused(saved);
  // The video's page, in the language just saved: its transcript shows what was stored.
  return flashRedirect(request, `/retrieval/detail?id=${id}&lang=${encodeURIComponent(saved)}`, "success", "content.captionsSaved");
}

/** The owner removes a language's captions (again: nothing more happens). */
async function remove({ request, form, id }: CaptionsIntent) {
  const lang = captionLang(String(form.get("lang") ?? ""));
  if (!lang) throw data(null, { status: 404 });
  await removeCaptions(id, lang);
  return flashRedirect(request, `/retrieval/detail/captions?id=${id}`, "success", "content.captionsRemoved");
}

export const intents = { captions, "remove-captions": remove } satisfies Intents<CaptionsIntent>;
