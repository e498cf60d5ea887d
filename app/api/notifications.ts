import { z } from "zod";
import { translator } from "~/.server/i18n/translate";
import { deleteSavedSearch, followGoal, followingOf, saveSearch } from "~/.server/notifications/new-items";
import { channelsOf, listNotifications, markRead, notificationTarget, setChannels } from "~/.server/notifications/notifications";
import { unreadNotifications } from "~/.server/notifications/unread";
import { notificationText } from "~/lib/notifications";
import * as answers from "./answers";
import { forMember, REFUSAL } from "./define";
import { notFound, ok } from "./envelope";

// The notification centre over the same service as /personal/notifications.

const goalParam = (value: string) => {
  const sdg = Number(value);
  return Number.isInteger(sdg) && sdg >= 1 && sdg <= 17 ? sdg : null;
};

const searchToSave = z.object({
  q: z.string().max(200).describe("the words to search for"),
  kind: z.enum(["document", "video"]).nullable().default(null).describe("documents or videos only; null for both"),
  sdg: z.int().min(1).max(17).nullable().default(null).describe("one goal only; null for any"),
});

const readSchema = z.object({
  ids: z.array(z.int().positive()).max(500).optional().describe("the notifications to mark read; none means all"),
});

export const notificationRoutes = [
  forMember({
    method: "GET",
    path: "/notifications",
    summary: "Your notifications, newest first (50 at a time; `before` pages back by id)",
    query: z.object({ before: z.coerce.number().int().positive().optional() }),
    answers: { 200: answers.notifications },
    handle: async ({ ctx, member, query }) => {
      const t = translator(ctx.language);
      const rows = await listNotifications(member.user.id, 50, query.before);
      return ok({ notifications: rows.map((row) => ({ ...row, text: notificationText(t, row), target: notificationTarget(row) })) });
    },
  }),
  forMember({
    method: "GET",
    path: "/notifications/unread",
    summary: "How many of your notifications are unread (the bell's count)",
    answers: { 200: answers.unreadCount },
    handle: async ({ member }) => ok({ count: await unreadNotifications(member.user.id) }),
  }),
  forMember({
    method: "POST",
    path: "/notifications/read",
    summary: "Mark notifications read (these ids, or all); a repeat changes nothing",
    body: readSchema,
    answers: { 200: answers.markedRead },
    handle: async ({ ctx, member, body }) => ok({ changed: await markRead(member.user.id, body.ids ?? "all", ctx.now) }),
  }),
  forMember({
    method: "GET",
    path: "/notifications/preferences",
    summary: "How each kind of notification reaches you (docs/decisions/0040): your channel, or the calm default",
    answers: { 200: answers.notificationChannels },
    handle: async ({ member }) => ok({ channels: await channelsOf(member.user.id) }),
  }),
  forMember({
    method: "PUT",
    path: "/notifications/preferences",
    summary: "Change the channel of the kinds given (idempotent); answers every kind's channel",
    body: answers.channelChanges,
    answers: { 200: answers.notificationChannels },
    handle: async ({ member, body }) => {
      await setChannels(member.user.id, body.channels as Parameters<typeof setChannels>[1]);
      return ok({ channels: await channelsOf(member.user.id) });
    },
  }),
  forMember({
    method: "GET",
    path: "/notifications/following",
    summary: "The goals you follow and the searches you saved: their new public items notify you (docs/decisions/0040)",
    answers: { 200: answers.following },
    handle: async ({ member }) => ok(await followingOf(member.user.id)),
  }),
  ...(["PUT", "DELETE"] as const).map((method) =>
    forMember({
      method,
      path: "/notifications/goals/{sdg}",
      summary: method === "PUT" ? "Follow a goal (1-17; idempotent)" : "Stop following a goal (idempotent)",
      answers: { 200: answers.following, 404: REFUSAL },
      handle: async ({ ctx, member, params: [value] }) => {
        const sdg = goalParam(value ?? "");
        if (sdg === null) return notFound(ctx.language, "item");
        await followGoal(member.user.id, sdg, method === "PUT", ctx.now);
        return ok(await followingOf(member.user.id));
      },
    }),
  ),
  forMember({
    method: "POST",
    path: "/notifications/searches",
    summary: "Save a search (at most 20; the same one again answers its id); 400 without words, 409 when 20 are kept",
    body: searchToSave,
    answers: { 200: answers.savedSearchId, 400: REFUSAL, 409: REFUSAL },
    handle: async ({ ctx, member, body }) => ok({ id: await saveSearch(member.user.id, body, ctx.now) }),
  }),
  forMember({
    method: "DELETE",
    path: "/notifications/searches/{id}",
    summary: "Delete a saved search of yours",
    answers: { 200: z.null(), 404: REFUSAL },
    handle: async ({ ctx, member, params: [id] }) =>
      (await deleteSavedSearch(member.user.id, Number(id))) ? ok(null) : notFound(ctx.language, "item"),
  }),
];
