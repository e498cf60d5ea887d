import { parseWithZod } from "@conform-to/zod/v4";
import { data, redirect } from "react-router";
import { addVersionFromMultipart } from "~/.server/content/add-version-form";
import { readCaptionFile } from "~/.server/content/caption-file";
import { removeCaptions, saveCaptions } from "~/.server/content/captions";
import { deleteContent, findContent, updateContent } from "~/.server/content/content";
import { readCappedBytes } from "~/.server/http/body";
import { attempt, Refused } from "~/.server/refused";
import { addComment, deleteComment, setFollow, setLike } from "~/.server/social/social";
import { doiPrefillReply } from "~/.server/web/shell/doi-prefill-reply";
import { flashRedirect, refusedRedirect } from "~/.server/web/shell/flash";
import { refusalReply } from "~/.server/web/shell/refusal-reply";
import { captionLang } from "~/lib/captions";
import { CAPTIONS_MAX_BYTES } from "~/lib/limits";
import { commentSchema, editContentSchema } from "~/lib/schemas/content";
import type { FormReply } from "~/lib/use-form";

// The detail page's intents, one function each: what anyone who may see the item does (like,
// follow its author, comment), and what its owner does (edit, delete). Every one is a plain form
// answered with a redirect (PRG), or the form again with its refusals.

export const SOCIAL_INTENTS = new Set(["like", "unlike", "follow", "unfollow", "comment", "delete-comment"]);

const back = (id: number) => `/retrieval/detail?id=${id}`;

export async function socialIntent(request: Request, form: FormData, intent: string, id: number, userId: number) {
  const item = await findContent(id, userId);
  if (!item) throw data(null, { status: 404 });
  const now = Date.now();
  if (intent === "like" || intent === "unlike") await setLike(userId, id, intent === "like", now);
  if (intent === "follow" || intent === "unfollow") {
    if (!(await setFollow(userId, item.owner_id, intent === "follow", now))) return refusedRedirect(request, back(id));
  }
  if (intent === "delete-comment") await deleteComment(userId, Number(form.get("comment")));
  if (intent === "comment") {
    const submission = parseWithZod(form, { schema: commentSchema });
    if (submission.status !== "success")
      return data({ result: undefined, confirmDelete: false, comment: submission.reply() }, { status: 400 });
    const { body, client_key, parent_id } = submission.value;
    const added = await attempt(() => addComment(userId, id, body, now, client_key, parent_id));
    // An ambiguous mention or a reply to a comment gone: said beside the field, nothing stored.
    if (added instanceof Refused) {
      const { reply, status } = refusalReply(submission, added);
      return data({ result: undefined, confirmDelete: false, comment: reply }, { status });
    }
    if (added === "refused") return refusedRedirect(request, back(id));
  }
  return redirect(back(id), { status: 303 });
}

export async function editIntent(request: Request, form: FormData, id: number, userId: number) {
  const submission = parseWithZod(form, { schema: editContentSchema });
  if (submission.status !== "success")
    return data({ result: submission.reply(), confirmDelete: false, comment: undefined }, { status: 400 });
  if (!(await updateContent(id, userId, submission.value, Date.now()))) throw data(null, { status: 404 });
  return flashRedirect(request, back(id), "success", "notify.updateSuccess");
}

/** The edit form's "Fill from DOI": the form again, filled from the record (the owner's only). */
export async function prefillIntent(form: FormData, id: number, userId: number) {
  const item = await findContent(id, userId);
  if (item?.owner_id !== userId) throw data(null, { status: 404 });
  const { data: answer, init } = await doiPrefillReply(form, userId);
  return data({ ...answer, confirmDelete: false, comment: undefined }, init ?? undefined);
}

/** A new version (the owner's): the page again with it, or the form again with its refusals. */
export async function versionIntent(request: Request, id: number, userId: number, later: (work: Promise<unknown>) => void) {
  const added = await addVersionFromMultipart(request, id, userId, Date.now(), later);
  if (added.ok) return flashRedirect(request, back(id), "success", `content.versionAdded|number=${added.id}`);
  if (added.status === 404) throw data(null, { status: 404 });
  const error = { ...added.fieldErrors, ...(added.formErrors.length ? { "": added.formErrors } : {}) };
  const version: FormReply = { status: "error", initialValue: added.fields, error };
  return data({ result: undefined, confirmDelete: false, comment: undefined, version }, { status: added.status });
}

export async function deleteIntent(request: Request, form: FormData, id: number, userId: number) {
  // Without JavaScript the first press asks again on the page; the dialog does that with it.
  if (form.get("confirm") !== "1") return { result: undefined, confirmDelete: true, comment: undefined };
  if (!(await deleteContent(id, userId))) throw data(null, { status: 404 });
  return flashRedirect(request, "/upload", "success", "content.deleted");
}

/** Room for a caption form's other fields and multipart framing beside its file. */
const CAPTION_FORM_SLACK = 16 * 1024;

/**
 * The owner's caption file for a language (decision 0043): stored, replacing that language's, or
 * the form again with the parser's line and reason beside the file. Read whole, but bounded.
 */
export async function captionsIntent(request: Request, id: number, userId: number) {
  const item = await findContent(id, userId);
  if (item?.owner_id !== userId || item.kind !== "video") throw data(null, { status: 404 });
  const refusal = (field: string, key: string, status = 400) => {
    const captions: FormReply = { status: "error", error: { [field]: [key] } };
    return data({ result: undefined, confirmDelete: false, comment: undefined, captions }, { status });
  };
  const bytes = await readCappedBytes(request, CAPTIONS_MAX_BYTES + CAPTION_FORM_SLACK);
  if (!bytes) return refusal("captions", `content.captionsTooLarge|max=${CAPTIONS_MAX_BYTES / 1024 / 1024}`, 413);
  const form = await new Request(request.url, { method: "POST", headers: request.headers, body: bytes }).formData().catch(() => null);
  if (!form) throw data(null, { status: 400 });
  const lang = captionLang(String(form.get("lang") ?? "").trim());
  if (!lang) return refusal("lang", "content.captionsLanguageInvalid");
  const file = form.get("captions");
  if (!(file instanceof File) || file.size === 0) return refusal("captions", "content.captionsMissing");
  const saved = await attempt(async () =>
    saveCaptions(id, lang, readCaptionFile(new Uint8Array(await file.arrayBuffer())), "owner", Date.now()),
  );
  if (saved instanceof Refused) return refusal(saved.field ?? "captions", saved.key, saved.status);
  return flashRedirect(request, `${back(id)}&lang=${encodeURIComponent(lang)}`, "success", "content.captionsSaved");
}

/** The owner removes a language's captions (again: nothing more happens). */
export async function removeCaptionsIntent(request: Request, form: FormData, id: number, userId: number) {
  const item = await findContent(id, userId);
  const lang = captionLang(String(form.get("lang") ?? ""));
  if (item?.owner_id !== userId || !lang) throw data(null, { status: 404 });
  await removeCaptions(id, lang);
  return flashRedirect(request, back(id), "success", "content.captionsRemoved");
}
