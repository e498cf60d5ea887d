import { parseWithZod } from "@conform-to/zod/v4";
import { data, redirect } from "react-router";
import { deleteContent, findContent } from "~/.server/content/content";
import { attempt, Refused } from "~/.server/refused";
import { addComment, deleteComment, setFollow, setLike } from "~/.server/social/social";
import { flashRedirect } from "~/.server/web/shell/flash";
import { refusalNotice, refusalReply } from "~/.server/web/shell/refusals";
import { commentSchema } from "~/lib/schemas/content";

// The detail page's intents, one function each: what anyone who may see the item does (like,
// follow its author, comment), and what its owner does here (delete; editing has its own page). Every one is a plain form
// answered with a redirect (PRG), or the form again with its refusals.

export const SOCIAL_INTENTS = new Set(["like", "unlike", "follow", "unfollow", "comment", "delete-comment"]);

const back = (id: number) => `/retrieval/detail?id=${id}`;

export async function socialIntent(request: Request, form: FormData, intent: string, id: number, userId: number) {
  const item = await findContent(id, userId);
  if (!item) throw data(null, { status: 404 });
  const now = Date.now();
  if (intent === "like" || intent === "unlike") await setLike(userId, id, intent === "like", now);
  if (intent === "follow" || intent === "unfollow") {
    const followed = await attempt(() => setFollow(userId, item.owner_id, intent === "follow", now));
    if (followed instanceof Refused) return refusalNotice(request, back(id), followed);
  }
  if (intent === "delete-comment") await deleteComment(userId, Number(form.get("comment")));
  if (intent === "comment") {
    const submission = parseWithZod(form, { schema: commentSchema });
    if (submission.status !== "success") return data({ confirmDelete: false, comment: submission.reply() }, { status: 400 });
    const { body, client_key, parent_id } = submission.value;
    const added = await attempt(() => addComment(userId, id, body, now, client_key, parent_id));
    // An ambiguous mention or a reply to a comment gone beside the field, a block above it: nothing
    // stored, what was typed kept.
    if (added instanceof Refused) {
      const { reply, status } = refusalReply(submission, added);
      return data({ confirmDelete: false, comment: reply }, { status });
    }
  }
  return redirect(back(id), { status: 303 });
}

export async function deleteIntent(request: Request, form: FormData, id: number, userId: number) {
  // Without JavaScript the first press asks again on the page; the dialog does that with it.
  if (form.get("confirm") !== "1") return { confirmDelete: true, comment: undefined };
  if (!(await deleteContent(id, userId))) throw data(null, { status: 404 });
  return flashRedirect(request, "/upload", "success", "content.deleted");
}
