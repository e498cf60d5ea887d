import { z } from "zod";
import { env } from "~/.server/bindings";
import { translator } from "~/.server/i18n/translate";
import { hostLink, isJoinable, listMeetings, meetingFor } from "~/.server/meetings/meetings";
import { meetingProvider } from "~/.server/meetings/provider";
import { cancel, ProviderUnavailable, providerMessage, reschedule, type Scheduler, schedule } from "~/.server/meetings/schedule";
import { meetingSchema } from "~/lib/schemas/meeting";
import * as answers from "./answers";
import type { Member } from "./context";
import { type ApiContext, afterAnswer } from "./context";
import { forMember, REFUSAL } from "./define";
import { API_CODES, fail, notFound, ok, refused } from "./envelope";

// Meetings over the same services as /liveStreaming. Only the host and invited members see one;
// to anyone else it does not exist (404).

const scheduler = (ctx: ApiContext, member: Member): Scheduler => ({
  hostId: member.user.id,
  language: ctx.language,
  origin: new URL(ctx.request.url).origin,
  now: ctx.now,
  later: afterAnswer(ctx),
});

/** A change that goes through the provider: its failure is a 502 saying nothing changed. */
async function viaProvider(ctx: ApiContext, change: () => Promise<Response>): Promise<Response> {
  try {
    return await change();
  } catch (error) {
    if (!(error instanceof ProviderUnavailable)) throw error;
    return fail(502, API_CODES.providerFailed, translator(ctx.language)(providerMessage(error)));
  }
}

const INPUT =
  "startsAt is the wall-clock time (YYYY-MM-DDTHH:mm) in timeZone (IANA); emails are comma separated (each gets an iCalendar invitation); participants are member ids. clientKey (optional, 8–64 of A–Z a–z 0–9 _ -) makes a retried schedule safe; sequence (optional) is the version an edit was made on.";

export const meetingRoutes = [
  forMember({
    method: "GET",
    path: "/meetings",
    summary: "Your meetings, as host or invited member: upcoming and past",
    answers: { 200: answers.meetings },
    handle: async ({ ctx, member }) => ok(await listMeetings(env.DB, member.user.id, ctx.now)),
  }),
  forMember({
    method: "POST",
    path: "/meetings",
    summary:
      "Schedule a meeting; invitations are mailed with an iCalendar file. The same clientKey again makes nothing new (200 with the same id)",
    description: INPUT,
    body: meetingSchema,
    answers: { 200: answers.meetingCreated, 201: answers.meetingCreated, 502: REFUSAL },
    handle: ({ ctx, member, body }) =>
      viaProvider(ctx, async () => {
        const created = await schedule(scheduler(ctx, member), body);
        if (created.refusal) return refused(ctx.language, [{ path: [created.refusal.field], message: created.refusal.message }]);
        return ok({ id: created.id as number }, translator(ctx.language)("notify.meetingScheduled"), {
          status: created.repeat ? 200 : 201,
        });
      }),
  }),
  forMember({
    method: "GET",
    path: "/meetings/{id}",
    summary: "One meeting (attendee emails to the host only)",
    answers: { 200: answers.meeting, 404: REFUSAL },
    handle: async ({ ctx, member, params: [id] }) => {
      const meeting = await meetingFor(env.DB, member.user.id, Number(id));
      return meeting ? ok(meeting) : notFound(ctx.language, "meeting");
    },
  }),
  forMember({
    method: "PUT",
    path: "/meetings/{id}",
    summary:
      "Change a meeting you host; attendees get an update (same UID, higher SEQUENCE), removed ones a cancellation. The same change again announces nothing; 409 when sequence names an older version than the stored one",
    description: INPUT,
    body: meetingSchema,
    answers: { 200: z.null(), 404: REFUSAL, 409: REFUSAL, 502: REFUSAL },
    handle: ({ ctx, member, body, params: [id] }) =>
      viaProvider(ctx, async () => {
        const updated = await reschedule(scheduler(ctx, member), Number(id), body);
        if (updated.notFound) return notFound(ctx.language, "meeting");
        if (updated.conflict) return fail(409, 409, translator(ctx.language)("validation.meetingChanged"));
        if (updated.refusal) return refused(ctx.language, [{ path: [updated.refusal.field], message: updated.refusal.message }]);
        return ok(null, translator(ctx.language)("notify.meetingUpdated"));
      }),
  }),
  forMember({
    method: "DELETE",
    path: "/meetings/{id}",
    summary: "Cancel a meeting you host (attendees get METHOD:CANCEL); a repeat changes nothing",
    answers: { 200: z.null(), 404: REFUSAL, 502: REFUSAL },
    handle: ({ ctx, member, params: [id] }) =>
      viaProvider(ctx, async () => {
        if ((await cancel(scheduler(ctx, member), Number(id))) === false) return notFound(ctx.language, "meeting");
        return ok(null, translator(ctx.language)("notify.meetingCancelled"));
      }),
  }),
  forMember({
    method: "GET",
    path: "/meetings/{id}/join",
    summary: "The meeting's join link (and the host's start link), and whether it can be joined now",
    answers: { 200: answers.meetingJoin, 404: REFUSAL },
    handle: async ({ ctx, member, params: [id] }) => {
      const meeting = await meetingFor(env.DB, member.user.id, Number(id));
      if (!meeting) return notFound(ctx.language, "meeting");
      const start_url = await hostLink(env.DB, member.user.id, meeting.id, meetingProvider);
      return ok({ join_url: meeting.join_url, start_url, joinable: isJoinable(meeting, ctx.now) });
    },
  }),
];
