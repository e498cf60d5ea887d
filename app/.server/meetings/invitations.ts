import ical, { ICalAttendeeRole, ICalCalendarMethod, ICalEventStatus } from "ical-generator";
import { tzlib_get_ical_block } from "timezones-ical-library";
import { config } from "~/.server/config/config";
import { translator } from "~/.server/i18n/translate";
import { mailHtml } from "~/.server/mail/html";
import { sendMail } from "~/.server/mail/mail";
import { optOutUrl } from "~/.server/mail/opt-out";
import type { InvitationKind, Meeting } from "~/lib/shapes";
import { formatInZone, utcToZoned } from "~/lib/time-zone";

// Invitations (RFC 5545 and 5546): one VEVENT per meeting under a stable UID; an update is the same
// UID with a higher SEQUENCE, a cancellation METHOD:CANCEL. Times are written in the meeting's zone
// (DTSTART;TZID=...) with that zone's VTIMEZONE, so calendars show them right anywhere.

/** The address invitations come from (the organizer calendars show): the mail sender's. */
function organizerAddress(): string {
  const mail = config().mail;
  const from = mail.provider === "http" ? mail.from : "no-reply@localhost";
  return /<([^>]+)>/.exec(from)?.[1] ?? from;
}

/**
 * The instant as ical-generator writes a time beside TZID: it prints a Date's local fields, so the
 * Date is built from the zone's wall-clock fields (with the local constructor, whatever the runtime's zone).
 */
function wallClock(instant: number, zone: string): Date {
  const [year = 0, month = 1, day = 1, hour = 0, minute = 0] = utcToZoned(instant, zone).split(/[-T:]/).map(Number);
  return new Date(year, month - 1, day, hour, minute);
}

/** The zone's VTIMEZONE, or null when the bundled data has none under exactly this name. */
function vtimezone(zone: string): string | null {
  const found = tzlib_get_ical_block(zone);
  // An alias comes back under its main name ("Asia/Calcutta" as "Asia/Kolkata"): that would not match DTSTART's TZID.
  return Array.isArray(found) && found[1] === `TZID=${zone}` ? (found[0] ?? null) : null;
}

/**
 * The invitation file for one attendee: it names them alone (attendees do not see each other's
 * addresses). Times beside the meeting's TZID with its VTIMEZONE; in UTC if that zone has none.
 */
export function icsFor(meeting: Meeting, email: string, kind: InvitationKind): string {
  const zone = vtimezone(meeting.time_zone) ? meeting.time_zone : null;
  const calendar = ical({
    prodId: { company: "Research Commons", product: "Meetings", language: "EN" },
    method: kind === "cancel" ? ICalCalendarMethod.CANCEL : ICalCalendarMethod.REQUEST,
    // No calendar-wide zone name (DTSTAMP stays UTC): the generator only adds the VTIMEZONE events use.
    timezone: { name: null, generator: vtimezone },
  });
  calendar.createEvent({
    id: meeting.uid,
    sequence: meeting.sequence,
    start: zone ? wallClock(meeting.starts_at, zone) : new Date(meeting.starts_at),
    end: zone
      ? wallClock(meeting.starts_at + meeting.duration_minutes * 60_000, zone)
      : new Date(meeting.starts_at + meeting.duration_minutes * 60_000),
    timezone: zone,
    summary: meeting.title,
    description: `${meeting.agenda}\n\n${meeting.join_url}`,
    location: meeting.join_url,
    url: meeting.join_url,
    status: kind === "cancel" ? ICalEventStatus.CANCELLED : ICalEventStatus.CONFIRMED,
    organizer: { name: meeting.host_name, email: organizerAddress() },
    // Replies would reach a no-reply address: none is asked for.
    attendees: [{ email, role: ICalAttendeeRole.REQ, rsvp: false }],
  });
  return calendar.toString();
}

/** The meeting's time as the attendee's mail states it: in the meeting's zone, named. */
export function meetingTime(meeting: Pick<Meeting, "starts_at" | "time_zone">, language: string): string {
  return formatInZone(meeting.starts_at, meeting.time_zone, language, "long");
}

/**
 * Mails one address its invitation, update or cancellation, in `language`, with the .ics attached;
 * throws when it was not sent. The address may never have signed up: the mail says who entered it,
 * and (given this site's origin) carries the link and the one-click header that stop such mail to it.
 */
export async function sendInvitation(
  meeting: Meeting,
  email: string,
  kind: InvitationKind,
  language: string,
  idempotencyKey: string,
  origin?: string,
) {
  const t = translator(language);
  const when = meetingTime(meeting, language);
  const stop = origin ? await optOutUrl(origin, email) : null;
  const text = [
    t(`meetings.mail.${kind}Intro`, { host: meeting.host_name, title: meeting.title }),
    "",
    `${t("meetings.when")}: ${when} (${meeting.duration_minutes} ${t("meetings.minutes")})`,
    ...(kind === "cancel" ? [] : [`${t("meetings.join")}: ${meeting.join_url}`]),
    "",
    `${t("fields.meetingAgenda")}:`,
    meeting.agenda,
    "",
    "--",
    t("meetings.mail.why", { host: meeting.host_name }),
    ...(stop ? [t("meetings.mail.stop", { url: stop })] : []),
  ].join("\n");
  const subject = t(`meetings.mail.${kind}Subject`, { title: meeting.title });
  // The same content as HTML: the join link a link, the stop link in the footer.
  const html = mailHtml({
    language,
    title: subject,
    paragraphs: [
      t(`meetings.mail.${kind}Intro`, { host: meeting.host_name, title: meeting.title }),
      `${t("meetings.when")}: ${when} (${meeting.duration_minutes} ${t("meetings.minutes")})`,
      `${t("fields.meetingAgenda")}: ${meeting.agenda}`,
      t("meetings.mail.why", { host: meeting.host_name }),
    ],
    sections: kind === "cancel" ? [] : [{ heading: t("meetings.join"), links: [{ text: meeting.join_url, href: meeting.join_url }] }],
    footer: stop ? [{ text: t("unsubscribe.confirm"), href: stop }] : [],
  });
  await sendMail({
    to: email,
    subject,
    text,
    html,
    attachments: [
      {
        filename: "invite.ics",
        contentType: `text/calendar; charset=utf-8; method=${kind === "cancel" ? "CANCEL" : "REQUEST"}`,
        content: icsFor(meeting, email, kind),
      },
    ],
    idempotencyKey,
    // RFC 8058: a mail client's own "unsubscribe" posts to the link, without opening it.
    ...(stop ? { headers: { "List-Unsubscribe": `<${stop}>`, "List-Unsubscribe-Post": "List-Unsubscribe=One-Click" } } : {}),
  });
}
