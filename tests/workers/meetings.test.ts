import { env } from "cloudflare:workers";
import ICAL from "ical.js";
import { describe, expect, it } from "vitest";
import { cancelMeeting, createMeeting, listMeetings, meetingFor, updateMeeting } from "~/.server/meetings/meetings";
import { meetingProvider } from "~/.server/meetings/provider";
import type { MeetingProvider } from "~/.server/meetings/provider-interface";
import { cancel, reschedule, type Scheduler, schedule } from "~/.server/meetings/schedule";
import { block } from "~/.server/social/blocks";
import { type MeetingInput, meetingSchema } from "~/lib/schemas/meeting";
import { zonedToUtc } from "~/lib/time-zone";
import { newMember, refusalOf, uniqueEmail, until } from "./helpers";

const NOW = Date.UTC(2026, 10, 23, 9, 0);
const input = (over: Partial<Record<keyof MeetingInput, unknown>> = {}): MeetingInput =>
  meetingSchema.parse({
    title: "Groundwater review",
    agenda: "1. Data\n2. Next steps",
    timeZone: "Asia/Tokyo",
    startsAt: "2026-12-01T10:00",
    duration: "45",
    emails: "someone@example.org",
    ...over,
  });

/** A scheduler whose live pushes are awaited by the test (its mail goes through the queue). */
function host(hostId: number) {
  const pending: Promise<unknown>[] = [];
  const who: Scheduler = { hostId, language: "en", now: NOW, later: (work) => pending.push(work) };
  return { who, settle: () => Promise.all(pending.splice(0)) };
}

/** The invitations to `email` once `count` have arrived through the queue. */
async function arrived(email: string, count: number) {
  return until(async () => {
    const mails = await invitationsTo(email);
    return mails.length >= count ? mails : null;
  });
}

/** The invitations mailed to `email`, each parsed by ical.js (an iCalendar parser we did not write). */
async function invitationsTo(email: string) {
  const { results } = await env.DB.prepare("SELECT subject, attachments FROM mail_outbox WHERE to_email = ? ORDER BY id")
    .bind(email)
    .all<{ subject: string; attachments: string }>();
  return results.map((mail) => {
    const [file] = JSON.parse(mail.attachments) as { content: string; contentType: string }[];
    const calendar = new ICAL.Component(ICAL.parse(file?.content ?? ""));
    const zone = calendar.getFirstSubcomponent("vtimezone");
    if (zone) ICAL.TimezoneService.register(zone);
    const vevent = calendar.getFirstSubcomponent("vevent");
    if (!vevent) throw new Error("no VEVENT");
    const event = new ICAL.Event(vevent);
    return {
      raw: file?.content ?? "",
      attendees: vevent.getAllProperties("attendee").map((p) => String(p.getFirstValue()).toLowerCase()),
      subject: mail.subject,
      contentType: file?.contentType,
      method: calendar.getFirstPropertyValue("method"),
      uid: event.uid,
      sequence: vevent.getFirstPropertyValue("sequence"),
      tzid: vevent.getFirstProperty("dtstart")?.getParameter("tzid"),
      start: event.startDate.toJSDate().getTime(),
      status: vevent.getFirstPropertyValue("status"),
    };
  });
}

describe("meetings", () => {
  it("reads a wall-clock time in its zone, across daylight saving changes", () => {
    expect(zonedToUtc("2026-12-01T10:00", "Asia/Tokyo")).toBe(Date.UTC(2026, 11, 1, 1, 0));
    expect(zonedToUtc("2026-07-01T10:00", "Europe/Berlin")).toBe(Date.UTC(2026, 6, 1, 8, 0));
    expect(zonedToUtc("2026-12-01T10:00", "Europe/Berlin")).toBe(Date.UTC(2026, 11, 1, 9, 0));
    expect(zonedToUtc("2026-11-01T01:30", "America/New_York")).toBe(Date.UTC(2026, 10, 1, 5, 30));
    // 02:30 never happens on the day clocks go forward: read with the offset before the change, east and west of UTC.
    expect(zonedToUtc("2026-03-29T02:30", "Europe/Berlin")).toBe(Date.UTC(2026, 2, 29, 1, 30));
    expect(zonedToUtc("2026-03-08T02:30", "America/New_York")).toBe(Date.UTC(2026, 2, 8, 7, 30));
    // A time that happens twice on the day clocks go back is its first occurrence, east and west.
    expect(zonedToUtc("2026-10-25T02:30", "Europe/Berlin")).toBe(Date.UTC(2026, 9, 25, 0, 30));
    expect(zonedToUtc("2026-11-01T01:30", "America/New_York")).toBe(Date.UTC(2026, 10, 1, 5, 30));
    expect(zonedToUtc("2026-12-01T10:00", "America/Los_Angeles")).toBe(Date.UTC(2026, 11, 1, 18, 0));
  });

  it("invites every address once with an iCalendar file calendars read back: UID, TZID start, SEQUENCE, METHOD", async () => {
    const hostId = await newMember("Host");
    const [ada, grace] = [uniqueEmail("ada"), uniqueEmail("grace")];
    const { who } = host(hostId);
    const created = await schedule(who, input({ emails: `${ada}, ${grace.toUpperCase()}; ${ada}` }));
    expect((await meetingFor(hostId, created.id ?? 0))?.emails).toEqual([ada, grace].sort());
    const [invite] = await arrived(ada, 1);
    expect(invite).toMatchObject({
      subject: "Invitation: Groundwater review",
      method: "REQUEST",
      sequence: 0,
      tzid: "Asia/Tokyo",
      start: Date.UTC(2026, 11, 1, 1, 0),
      status: "CONFIRMED",
    });
    expect(invite?.contentType).toContain("method=REQUEST");
    // Each file names its own attendee only, asks no reply of a no-reply address, and stamps in UTC.
    expect(invite?.attendees).toEqual([`mailto:${ada}`]);
    expect(invite?.raw).toMatch(/^DTSTAMP:\d{8}T\d{6}Z\r$/m);
    expect(invite?.raw).not.toContain("RSVP=TRUE");
    expect(invite?.raw).not.toContain("X-WR-TIMEZONE");
    expect(await arrived(grace, 1)).toHaveLength(1);

    // An edit: the same UID, a higher SEQUENCE; an address taken off hears of a cancellation, a new one is invited.
    const lin = uniqueEmail("lin");
    await reschedule(who, created.id ?? 0, input({ emails: `${grace}, ${lin}`, startsAt: "2026-12-02T15:30" }));
    expect(await arrived(lin, 1)).toMatchObject([{ subject: "Invitation: Groundwater review", sequence: 1, method: "REQUEST" }]);
    const [, update] = await arrived(grace, 2);
    expect(update).toMatchObject({ uid: invite?.uid, sequence: 1, method: "REQUEST", start: Date.UTC(2026, 11, 2, 6, 30) });
    const [, removed] = await arrived(ada, 2);
    expect(removed).toMatchObject({ uid: invite?.uid, method: "CANCEL", sequence: 1, status: "CANCELLED" });

    // The cancellation: METHOD:CANCEL, higher again; a repeat sends nothing more.
    await cancel(who, created.id ?? 0);
    await cancel(who, created.id ?? 0);
    const mails = await arrived(grace, 3);
    expect(mails).toHaveLength(3);
    expect(mails[2]).toMatchObject({ uid: invite?.uid, method: "CANCEL", sequence: 2 });
    // An edit arriving after the cancellation changes nothing and announces nothing.
    expect(await reschedule(who, created.id ?? 0, input({ emails: grace }))).toEqual({ notFound: true });
    expect(await invitationsTo(grace)).toHaveLength(3);
  });

  it("refuses what the spec and the limits refuse, each beside its field, keeping nothing", async () => {
    const hostId = await newMember("Careful");
    const stranger = await newMember("Unfollowed");
    const issues = (over: Partial<Record<keyof MeetingInput, unknown>>) => {
      const parsed = meetingSchema.safeParse({ ...input(), emails: "a@b.example", ...over });
      return parsed.success ? {} : Object.fromEntries(parsed.error.issues.map((i) => [String(i.path[0]), i.message]));
    };
    expect(issues({ title: " ", agenda: "", timeZone: "", startsAt: "", duration: undefined, emails: "" })).toEqual({
      title: "validation.fieldEmpty|field=fields.meetingTitle",
      agenda: "validation.fieldEmpty|field=fields.meetingAgenda",
      timeZone: "validation.fieldEmpty|field=fields.meetingTimeZone",
      startsAt: "validation.fieldEmpty|field=fields.meetingStart",
      duration: "validation.fieldEmpty|field=fields.meetingDuration",
      emails: "validation.fieldEmpty|field=fields.meetingEmails",
    });
    expect(issues({ duration: "0" })).toEqual({ duration: "validation.meetingDuration" });
    expect(issues({ duration: "100000" })).toEqual({ duration: "validation.meetingDurationMax|max=720" });
    expect(issues({ emails: "a@b.example, not-an-email" })).toMatchObject({ emails: "validation.emailFormat" });
    expect(issues({ emails: Array.from({ length: 51 }, (_, i) => `p${i}@b.example`).join(",") })).toEqual({
      emails: "validation.meetingTooManyEmails|max=50",
    });

    const { who } = host(hostId);
    const at = (over: Partial<Record<keyof MeetingInput, unknown>>) => refusalOf(schedule(who, input({ emails: "a@b.example", ...over })));
    expect(await at({ startsAt: "2026-11-23T17:59" })).toEqual({ field: "startsAt", key: "validation.meetingStartPast", status: 400 });
    expect(await at({ startsAt: "2030-01-01T00:00" })).toMatchObject({ key: expect.stringMatching(/^validation\.meetingStartFar/) });
    for (const timeZone of ["Mars/Olympus", "asia/tokyo"])
      expect(await at({ timeZone }), timeZone).toMatchObject({ field: "timeZone", key: "validation.meetingTimeZone" });
    expect(await at({ participants: [999999] })).toMatchObject({ field: "participants", key: "validation.meetingParticipantUnknown" });
    await env.DB.prepare("INSERT INTO blocks (blocker_id, blocked_id, created_at) VALUES (?, ?, 1)").bind(stranger, hostId).run();
    expect(await at({ participants: [stranger] })).toMatchObject({ field: "participants" });
    expect((await listMeetings(hostId, NOW)).upcoming).toEqual([]);
  });

  it("takes a member out of the host's meetings to come when either blocks the other, and tells them nothing more", async () => {
    const hostId = await newMember("Owner");
    const [blocker, blocked, stays] = [await newMember("Blocker"), await newMember("Blocked"), await newMember("Stays")];
    for (const guest of [blocker, blocked, stays])
      await env.DB.prepare("INSERT INTO follows (follower_id, followee_id, created_at) VALUES (?, ?, 1)").bind(guest, hostId).run();
    const { who, settle } = host(hostId);
    const { id = 0 } = await schedule(who, input({ participants: [blocker, blocked, stays] }));
    await settle();
    await block(blocker, hostId, NOW);
    await block(hostId, blocked, NOW);
    expect((await meetingFor(hostId, id))?.participants.map((p) => p.id)).toEqual([stays]);
    expect(await meetingFor(blocker, id)).toBeNull();
    await reschedule(who, id, input({ title: "Moved", participants: [stays] }));
    await settle();
    const told = (member: number) =>
      env.DB.prepare("SELECT count(*) AS n FROM notifications WHERE user_id = ? AND subject_id = ?").bind(member, id).first<number>("n");
    expect([await told(blocker), await told(blocked), await told(stays)]).toEqual([1, 1, 2]);
  });

  it("shows a meeting to its host and invited members only; the host's link and the addresses to the host alone", async () => {
    const hostId = await newMember("Owner");
    const guest = await newMember("Guest");
    const stranger = await newMember("Stranger");
    const { who } = host(hostId);
    // Only members connected to the host by a follow can be invited.
    expect(await refusalOf(schedule(who, input({ participants: [guest] })))).toMatchObject({ field: "participants" });
    await env.DB.prepare("INSERT INTO follows (follower_id, followee_id, created_at) VALUES (?, ?, 1)").bind(guest, hostId).run();
    const { id = 0 } = await schedule(who, input({ emails: "a@b.example", participants: [guest] }));
    expect(await meetingFor(stranger, id)).toBeNull();
    expect(await meetingFor(guest, id)).toMatchObject({ title: "Groundwater review", emails: [] });
    expect((await listMeetings(guest, NOW)).upcoming.map((m) => m.id)).toEqual([id]);
    expect((await listMeetings(stranger, NOW)).upcoming).toEqual([]);
    // Only the host changes or cancels it.
    expect(await reschedule(host(guest).who, id, input({ emails: "x@y.example" }))).toEqual({ notFound: true });
    expect(await cancel(host(guest).who, id)).toBe(false);
    expect((await meetingFor(hostId, id))?.cancelled_at).toBeNull();
  });

  it("schedules once for one form posted twice at once, announces a repeated edit once, and refuses an edit of an older version", async () => {
    const hostId = await newMember("Double clicker");
    const guest = await newMember("Invited once");
    await env.DB.prepare("INSERT INTO follows (follower_id, followee_id, created_at) VALUES (?, ?, 1)").bind(guest, hostId).run();
    const ada = uniqueEmail("ada");
    const { who, settle } = host(hostId);
    const form = input({ emails: ada, participants: [guest], clientKey: "form-key-1234" });
    const [first, second] = await Promise.all([schedule(who, form), schedule(who, form)]);
    expect(first.id).toBeGreaterThan(0);
    expect(second.id).toBe(first.id);
    // A later repeat (a retried post) answers the same meeting too.
    expect(await schedule(who, form)).toEqual({ id: first.id, repeat: true });
    await settle();
    expect((await listMeetings(hostId, NOW)).upcoming.map((m) => m.id)).toEqual([first.id]);
    expect(await arrived(ada, 1)).toHaveLength(1);
    const notes = () => env.DB.prepare("SELECT count(*) AS n FROM notifications WHERE user_id = ?").bind(guest).first<number>("n");
    expect(await notes()).toBe(1);
    // Another form (another key) is another meeting.
    expect((await schedule(who, input({ emails: "b@b.example", clientKey: "form-key-5678" }))).id).not.toBe(first.id);
    await settle();

    // The same edit twice at once (from version 0): one change, one update each.
    const id = first.id ?? 0;
    const edit = input({ emails: ada, participants: [guest], title: "Moved", sequence: 0 });
    const edits = await Promise.all([reschedule(who, id, edit), reschedule(who, id, edit)]);
    expect(edits.filter((result) => "unchanged" in result)).toHaveLength(1);
    await settle();
    expect((await meetingFor(hostId, id))?.sequence).toBe(1);
    expect((await arrived(ada, 2)).filter((mail) => Number(mail.sequence) === 1)).toHaveLength(1);
    expect(await notes()).toBe(2);
    // Again later: nothing changes or is announced.
    expect(await reschedule(who, id, edit)).toEqual({ unchanged: true });
    // A different edit made on version 0 (an old window) is refused and changes nothing.
    expect(await refusalOf(reschedule(who, id, input({ emails: ada, title: "Stale", sequence: 0 })))).toMatchObject({
      key: "validation.meetingChanged",
      status: 409,
    });
    await settle();
    expect(await meetingFor(hostId, id)).toMatchObject({ title: "Moved", sequence: 1, emails: [ada] });
    expect((await meetingFor(hostId, id))?.participants.map((p) => p.id)).toEqual([guest]);
    expect(await invitationsTo(ada)).toHaveLength(2);
  });

  it("sends the invitations of a post that failed after making the meeting when the form is posted again, once", async () => {
    const hostId = await newMember("Retrying host");
    const ada = uniqueEmail("ada");
    const form = input({ emails: ada, clientKey: "retried-key-1234" });
    // The first post made the meeting and failed before queuing its mail.
    await createMeeting(meetingProvider(), hostId, form, NOW);
    const { who } = host(hostId);
    expect((await schedule(who, form)).repeat).toBe(true);
    await schedule(who, form);
    expect(await arrived(ada, 1)).toHaveLength(1);
  });

  it("keeps one room when one form's two posts race: the losing post's room goes again", async () => {
    const calls: string[] = [];
    let rooms = 0;
    const provider: MeetingProvider = {
      name: "fake",
      origin: "https://meet.example",
      async create() {
        rooms += 1;
        calls.push(`create room-${rooms}`);
        return { providerId: `room-${rooms}`, joinUrl: `https://meet.example/room-${rooms}` };
      },
      async update() {},
      async remove(id) {
        calls.push(`remove ${id}`);
      },
      async hostLink() {
        return null;
      },
    };
    const hostId = await newMember("Racer");
    const form = input({ emails: "a@b.example", clientKey: "race-key-1234" });
    const results = await Promise.all([1, 2, 3].map(() => createMeeting(provider, hostId, form, NOW)));
    expect(new Set(results.map((r) => r.id)).size).toBe(1);
    const created = calls.filter((call) => call.startsWith("create")).length;
    const removed = calls.filter((call) => call.startsWith("remove")).length;
    expect(created - removed).toBe(1);
    const kept = await env.DB.prepare("SELECT provider_id FROM meetings WHERE host_id = ?").bind(hostId).all<{ provider_id: string }>();
    expect(kept.results).toHaveLength(1);
    expect(calls).not.toContain(`remove ${kept.results[0]?.provider_id}`);
  });

  it("of two different edits at once, one is stored, the other refused, and the provider ends with the stored one", async () => {
    const told: string[] = [];
    const provider: MeetingProvider = {
      name: "fake",
      origin: "https://meet.example",
      async create() {
        return { providerId: "room-edit", joinUrl: "https://meet.example/room-edit" };
      },
      async update(_id, meeting) {
        told.push(meeting.title);
      },
      async remove() {},
      async hostLink() {
        return null;
      },
    };
    const hostId = await newMember("Two windows");
    const { id = 0 } = await createMeeting(provider, hostId, input({ emails: "a@b.example" }), NOW);
    const edit = (title: string) => updateMeeting(() => provider, hostId, id, input({ emails: "a@b.example", title, sequence: 0 }), NOW);
    const results = await Promise.all([refusalOf(edit("Left")), refusalOf(edit("Right"))]);
    expect(results.filter((result) => result !== "not refused" && result.status === 409)).toHaveLength(1);
    const stored = (await meetingFor(hostId, id))?.title;
    expect(["Left", "Right"]).toContain(stored);
    expect(told.at(-1)).toBe(stored);
  });

  it("leaves no provider room behind when the meeting cannot be stored, and no meeting when the provider fails", async () => {
    const calls: string[] = [];
    const provider = (fails = false): MeetingProvider => ({
      name: "fake",
      origin: "https://meet.example",
      async create() {
        calls.push("create");
        if (fails) throw new Error("provider down");
        return { providerId: "room-1", joinUrl: "https://meet.example/room-1" };
      },
      async update() {},
      async remove(id) {
        calls.push(`remove ${id}`);
      },
      async hostLink() {
        return null;
      },
    });
    // No such host: the row cannot be written (foreign key), so the room goes again.
    await expect(createMeeting(provider(), 999999, input({ emails: "a@b.example" }), NOW)).rejects.toThrow();
    expect(calls).toEqual(["create", "remove room-1"]);
    const hostId = await newMember("Unlucky");
    await expect(createMeeting(provider(true), hostId, input({ emails: "a@b.example" }), NOW)).rejects.toThrow("provider down");
    expect((await listMeetings(hostId, NOW)).upcoming).toEqual([]);
    expect(await cancelMeeting(() => provider(), hostId, 424242, NOW)).toBe(false);
  });
});
