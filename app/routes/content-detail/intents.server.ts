import { parseWithZod } from "@conform-to/zod/v4";
import { data, redirect } from "react-router";
import { deleteContent, findContent } from "~/.server/content/content";
import { attempt, Refused } from "~/.server/refused";
import { addComment, deleteComment, setFollow, setLike } from "~/.server/social/social";
import { flashRedirect } from "~/.server/web/shell/flash";
import type { Intents } from "~/.server/web/shell/intents";
import { refusalNotice, refusalReply } from "~/.server/web/shell/refusals";
import { commentSchema } from "~/lib/schemas/content";

// The detail page's intents, one function each: what anyone who may see the item does (like,
// follow its author, comment), and what its owner does here (delete; editing has its own page).
// Every one is a plain form answered with a redirect (PRG), or the form again with its refusals.

export interface DetailIntent {
  request: Request;
  form: FormData;
  /** The item the page shows. */
  id: number;
  userId: number;
}

const back = (id: number) => redirect(`/retrieval/detail?id=${id}`, { status: 303 });

/** The item, if the member may see it; else the page's 404. */
async function visible(id: number, userId: number) {
  const item = await findContent(id, userId);
  if (!item) throw data(null, { status: 404 });
  return item;
}

const liking =
  (liked: boolean) =>
  async ({ id, userId }: DetailIntent) => {
    await visible(id, userId);
    await setLike(userId, id, liked, Date.now());
    return back(id);
  };

const following =
  (follow: boolean) =>
  async ({ request, id, userId }: DetailIntent) => {
    const item = await visible(id, userId);
    const followed = await attempt(() => setFollow(userId, item.owner_id, follow, Date.now()));
    return followed instanceof Refused ? refusalNotice(request, `/retrieval/detail?id=${id}`, followed) : back(id);
  };

async function comment({ form, id, userId }: DetailIntent) {
  await visible(id, userId);
  const submission = parseWithZod(form, { schema: commentSchema });
  if (submission.status !== "success") return data({ confirmDelete: false, comment: submission.reply() }, { status: 400 });
  const { body, client_key, parent_id, ...passage } = submission.value;
  const added = await attempt(() => addComment(userId, id, body, Date.now(), client_key, parent_id, passage));
  // An ambiguous mention, a reply to a comment gone or a passage not found beside the field, a block above it: nothing
  // stored, what was typed kept.
  if (added instanceof Refused) {
    const { reply, status } = refusalReply(submission, added);
    return data({ confirmDelete: false, comment: reply }, { status });
  }
  return back(id);
}

async function removeComment({ form, id, userId }: DetailIntent) {
  await visible(id, userId);
  await deleteComment(userId, Number(form.get("comment")));
  return back(id);
}

/** The owner deletes the item: without JavaScript the first press asks again on the page; the dialog does that with it. */
async function remove({ request, form, id, userId }: DetailIntent) {
  if (form.get("confirm") !== "1") return { confirmDelete: true, comment: undefined };
  if (!(await deleteContent(id, userId))) throw data(null, { status: 404 });
  return flashRedirect(request, "/upload", "success", "content.deleted");
}

export const intents = {
  like: liking(true),
  unlike: liking(false),
  follow: following(true),
  unfollow: following(false),
  comment,
  "delete-comment": removeComment,
  delete: remove,
} satisfies Intents<DetailIntent>;
