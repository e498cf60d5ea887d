import { z } from "zod";
import { translator } from "~/.server/i18n/translate";
import { channelsOf, listNotifications, markRead, notificationTarget, setChannels } from "~/.server/notifications/notifications";
import { unreadNotifications } from "~/.server/notifications/unread";
import { notificationText } from "~/lib/notifications";
import * as answers from "./answers";
import { forMember } from "./define";
import { ok } from "./envelope";

// The notification centre over the same service as /personal/notifications.

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
];
