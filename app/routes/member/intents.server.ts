import { parseWithZod } from "@conform-to/zod/v4";
import { data } from "react-router";
import type { z } from "zod";
import type { SessionUser } from "~/.server/accounts/sessions";
import { removeCoAuthor } from "~/.server/content/co-authors";
import { decideFunding } from "~/.server/content/funding";
import { addInterest, removeInterest } from "~/.server/members/interests";
import { addTag, removeTag } from "~/.server/members/tags";
import { attempt, Refused } from "~/.server/refused";
import { block, unblock } from "~/.server/social/blocks";
import { followMember } from "~/.server/social/social";
import { flashRedirect } from "~/.server/web/shell/flash";
import type { Intents } from "~/.server/web/shell/intents";
import { refusalNotice, refusalReply } from "~/.server/web/shell/refusals";
import type { MembershipLevel } from "~/lib/profile-tags";
import { interestSchema } from "~/lib/schemas/content";
import { tagSchema } from "~/lib/schemas/tags";

// The member page's intents, one function each: following and blocking the member shown, and one's
// own tags and interests (whatever page the form was on, they go to the signed-in member). An
// intent answers a response of its own, or nothing for the page's redirect back (PRG).

export interface Intent {
  request: Request;
  form: FormData;
  intent: string;
  user: SessionUser;
  /** The member the page shows. */
  id: number;
  now: number;
}

/** Adds one thing from a one-field form; answers Conform's reply when refused (by the schema or the service), else null. */
async function addOne<S extends z.ZodObject>(form: FormData, schema: S, add: (value: z.infer<S>) => Promise<void>) {
  const submission = parseWithZod(form, { schema });
  if (submission.status !== "success") return submission.reply();
  const added = await attempt(() => add(submission.value));
  return added instanceof Refused ? refusalReply(submission, added).reply : null;
}

async function follow({ request, intent, user, id, now }: Intent) {
  const followed = await attempt(() => followMember(user.id, id, intent === "follow", now));
  if (followed instanceof Refused) return refusalNotice(request, `/personal?member=${id}`, followed);
}

async function blocking({ request, intent, user, id, now }: Intent) {
  if (!Number.isInteger(id) || id <= 0 || id === user.id) throw data(null, { status: 404 });
  if (intent === "unblock") await unblock(user.id, id);
  else {
    const blocked = await attempt(() => block(user.id, id, now));
    if (blocked instanceof Refused) return refusalNotice(request, `/personal?member=${id}`, blocked);
  }
  return flashRedirect(request, `/personal?member=${id}`, "success", intent === "block" ? "safety.blockDone" : "safety.unblockDone");
}

async function interest({ form, user, now }: Intent) {
  const refused = await addOne(form, interestSchema, (value) => addInterest(user.id, value.sdg, now));
  if (refused) return data({ interest: refused }, { status: 400 });
}

async function tag({ form, user, now }: Intent) {
  const level = user.membership as MembershipLevel;
  const refused = await addOne(form, tagSchema, (value) => addTag(user.id, level, value.tag, now));
  if (refused) return data({ tag: refused }, { status: 400 });
}

async function removeOne({ form, intent, user }: Intent) {
  if (intent === "remove-tag") await removeTag(user.id, Number(form.get("tag")));
  else await removeInterest(user.id, Number(form.get("sdg")));
}

/** A co-author listed by the iD they linked takes themselves off an item's list. */
async function leaveCoAuthors({ request, form, user }: Intent) {
  await removeCoAuthor(user.id, Number(form.get("content")));
  return flashRedirect(request, "/personal", "success", "notify.coAuthorRemoved");
}

/** The funder a work names confirms it, or declines it (decision 0052); a reference naming someone else changes nothing. */
async function decideSupport({ request, form, intent, user }: Intent) {
  const decided = await decideFunding(user.id, Number(form.get("funding")), intent === "confirm-funding" ? "confirmed" : "declined");
  return flashRedirect(request, "/personal", decided ? "success" : "error", decided ? "notify.updateSuccess" : "notify.requestFailed");
}

/** The member page's forms: each answers a response of its own, or nothing for the redirect back. */
export const intents = {
  follow,
  unfollow: follow,
  block: blocking,
  unblock: blocking,
  "add-interest": interest,
  "add-tag": tag,
  "remove-tag": removeOne,
  "remove-interest": removeOne,
  "leave-co-authors": leaveCoAuthors,
  "confirm-funding": decideSupport,
  "decline-funding": decideSupport,
} satisfies Intents<Intent>;
