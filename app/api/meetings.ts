import { z } from "zod";
import { translator } from "~/.server/i18n/translate";
import { hostLink, isJoinable, listMeetings, meetingFor } from "~/.server/meetings/meetings";
import { meetingProvider } from "~/.server/meetings/provider";
import { cancel, reschedule, type Scheduler, schedule } from "~/.server/meetings/schedule";
import { meetingSchema } from "~/lib/schemas/meeting";
import * as answers from "./answers";
import { snakeCased } from "./casing";
import type { Member } from "./context";
import { type ApiContext, afterAnswer } from "./context";
import { forMember, REFUSAL } from "./define";
import { notFound, ok } from "./envelope";

// Meetings over the same services as /liveStreaming. Only the host and invited members see one;
// to anyone else it does not exist (404).

const scheduler = (ctx: ApiContext, member: Member): Scheduler => ({
  hostId: member.user.id,
  language: ctx.language,
  origin: new URL(ctx.request.url).origin,
  now: ctx.now,
  later: afterAnswer(ctx),
});

const INPUT =
  "starts_at is the wall-clock time (YYYY-MM-DDTHH:mm) in time_zone (IANA); emails are comma separated (each gets an iCalendar invitation); participants are member ids. client_key (optional, 8–64 of A–Z a–z 0–9 _ -) makes a retried schedule safe; sequence (optional) is the version an edit was made on.";

export const meetingRoutes = [
  forMember({
    method: "GET",
    path: "/meetings",
    summary: "Your meetings, as host or invited member: upcoming and past",
    answers: { 200: answers.meetings },
    handle: async ({ ctx, member }) => ok(await listMeetings(member.user.id, ctx.now)),
  }),
  forMember({
    method: "POST",
    path: "/meetings",
    summary:
      "Schedule a meeting; invitations are mailed with an iCalendar file. The same client_key again makes nothing new (200 with the same id)",
    description: INPUT,
    body: snakeCased(meetingSchema),
    answers: { 200: answers.meetingCreated, 201: answers.meetingCreated, 502: REFUSAL },
    handle: async ({ ctx, member, body }) => {
      const created = await schedule(scheduler(ctx, member), body);
      return ok({ id: created.id as number }, translator(ctx.language)("notify.meetingScheduled"), { status: created.repeat ? 200 : 201 });
    },
  }),
  forMember({
    method: "GET",
    path: "/meetings/{id}",
    summary: "One meeting (attendee emails to the host only)",
    answers: { 200: answers.meeting, 404: REFUSAL },
    handle: async ({ ctx, member, params: [id] }) => {
      const meeting = await meetingFor(member.user.id, Number(id));
      return meeting ? ok(meeting) : notFound(ctx.language, "meeting");
    },
  }),
  forMember({
    method: "PUT",
    path: "/meetings/{id}",
    summary:
      "Change a meeting you host; attendees get an update (same UID, higher SEQUENCE), removed ones a cancellation. The same change again announces nothing; 409 when sequence names an older version than the stored one",
    description: INPUT,
    body: snakeCased(meetingSchema),
    answers: { 200: z.null(), 404: REFUSAL, 409: REFUSAL, 502: REFUSAL },
    handle: async ({ ctx, member, body, params: [id] }) => {
      const updated = await reschedule(scheduler(ctx, member), Number(id), body);
      if (updated.notFound) return notFound(ctx.language, "meeting");
      return ok(null, translator(ctx.language)("notify.meetingUpdated"));
    },
  }),
  forMember({
    method: "DELETE",
    path: "/meetings/{id}",
    summary: "Cancel a meeting you host (attendees get METHOD:CANCEL); a repeat changes nothing",
    answers: { 200: z.null(), 404: REFUSAL, 502: REFUSAL },
    handle: async ({ ctx, member, params: [id] }) => {
      if ((await cancel(scheduler(ctx, member), Number(id))) === false) return notFound(ctx.language, "meeting");
      return ok(null, translator(ctx.language)("notify.meetingCancelled"));
    },
  }),
  forMember({
    method: "GET",
    path: "/meetings/{id}/join",
    summary: "The meeting's join link (and the host's start link), and whether it can be joined now",
    answers: { 200: answers.meetingJoin, 404: REFUSAL },
    handle: async ({ ctx, member, params: [id] }) => {
      const meeting = await meetingFor(member.user.id, Number(id));
      if (!meeting) return notFound(ctx.language, "meeting");
      const start_url = await hostLink(member.user.id, meeting.id, meetingProvider);
      return ok({ join_url: meeting.join_url, start_url, joinable: isJoinable(meeting, ctx.now) });
    },
  }),
];
