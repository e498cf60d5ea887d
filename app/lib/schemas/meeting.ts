import { z } from "zod";
import { MEETING_AGENDA_MAX, MEETING_MAX_ATTENDEES, MEETING_MAX_MINUTES, MEETING_MAX_PARTICIPANTS, MEETING_TITLE_MAX } from "~/lib/limits";
import { chosenRegion } from "~/lib/time-zone";
import { email } from "./auth";
import { CLIENT_KEY, requiredLine, requiredText } from "./text";

// Scheduling a meeting (spec section 5: title, agenda, timezone, select time, duration and emails
// required). Whether the start is in the future is the server's to judge: it needs the zone and the clock.

const empty = (field: string) => `validation.fieldEmpty|field=fields.${field}`;

/** "a@x.org, b@y.org; a@x.org" as a list: trimmed, lower-cased, each checked, repeats dropped. */
const emailList = z
  .string({ error: empty("meetingEmails") })
  .transform((text) => [
    ...new Set(
      text
        .split(/[,;\s]+/)
        .map((e) => e.trim().toLowerCase())
        .filter(Boolean),
    ),
  ])
  .pipe(
    z
      .array(email)
      .min(1, empty("meetingEmails"))
      .max(MEETING_MAX_ATTENDEES, `validation.meetingTooManyEmails|max=${MEETING_MAX_ATTENDEES}`),
  );

export const meetingSchema = z.object({
  title: requiredLine("meetingTitle", MEETING_TITLE_MAX),
  agenda: requiredText("meetingAgenda", MEETING_AGENDA_MAX),
  timeZone: z
    .string({ error: empty("meetingTimeZone") })
    .min(1, { error: empty("meetingTimeZone"), abort: true })
    .max(64, "validation.meetingTimeZone")
    // A region chosen without script (decision 0047): the form comes back asking for one of its zones.
    .superRefine((zone, context) => {
      const region = chosenRegion(zone);
      if (region) context.addIssue({ code: "custom", message: `validation.meetingZoneIn|region=${region}` });
    }),
  startsAt: z
    .string({ error: empty("meetingStart") })
    .min(1, { error: empty("meetingStart"), abort: true })
    .regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}$/, "validation.meetingStartFormat"),
  duration: z.coerce
    .number({ error: empty("meetingDuration") })
    .int("validation.meetingDuration")
    .min(1, "validation.meetingDuration")
    .max(MEETING_MAX_MINUTES, `validation.meetingDurationMax|max=${MEETING_MAX_MINUTES}`),
  emails: emailList,
  /** The member's own zone (their browser's), which their times are shown in; the form sends it with JavaScript. */
  myZone: z.string().max(64).optional(),
  participants: z
    .array(z.coerce.number().int().positive())
    .max(MEETING_MAX_PARTICIPANTS, `validation.meetingTooManyParticipants|max=${MEETING_MAX_PARTICIPANTS}`)
    .default([]),
  /** Made with the form: the same key again schedules nothing new (a double click, a retried post). */
  clientKey: z.string().regex(CLIENT_KEY, "notify.requestFailed").optional(),
  /** The version (SEQUENCE) an edit was made on: an edit of an older version is refused, not applied over a newer one. */
  sequence: z.coerce.number().int().min(0).optional(),
});

export type MeetingInput = z.infer<typeof meetingSchema>;
