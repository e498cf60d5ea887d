import { env } from "~/.server/bindings";
import { logEvent } from "~/.server/observability/log";
import { madeOnce } from "~/.server/once";
import { Refused } from "~/.server/refused";
import { BLOCKED_BETWEEN } from "~/.server/social/block-rules";
import {
  MEETING_JOIN_EARLY_MINUTES,
  MEETING_MAX_DAYS_AHEAD,
  MEETING_NEW_ACCOUNT_DAYS,
  MEETING_OUTSIDE_INVITES_NEW_ACCOUNT,
  MEETING_OUTSIDE_INVITES_PER_DAY,
} from "~/lib/limits";
import type { MeetingInput } from "~/lib/schemas/meeting";
import type { Meeting } from "~/lib/shapes";
import { isTimeZone, zonedToUtc } from "~/lib/time-zone";
import type { MeetingProvider, ProviderMeeting } from "./provider-interface";

// Meetings (docs/decisions/0022-meetings.md). Only the host and the members they invited see a
// meeting; anyone else is told it does not exist. The provider's room is made before the row and
// removed again if the row cannot be written, so neither exists without the other.

const DAY = 24 * 60 * 60 * 1000;
/** An edit made on a version that is no longer the stored one. */
const MEETING_CHANGED = "validation.meetingChanged";

/** The input as the provider takes it, its start an instant; refused beside the field it concerns. */
async function checked(hostId: number, input: MeetingInput, now: number, already: number[] = []): Promise<ProviderMeeting> {
  if (!isTimeZone(input.timeZone)) throw new Refused("validation.meetingTimeZone", { field: "timeZone" });
  const startsAt = zonedToUtc(input.startsAt, input.timeZone);
  if (startsAt === null) throw new Refused("validation.meetingStartFormat", { field: "startsAt" });
  if (startsAt <= now) throw new Refused("validation.meetingStartPast", { field: "startsAt" });
  if (startsAt > now + MEETING_MAX_DAYS_AHEAD * DAY)
    throw new Refused(`validation.meetingStartFar|days=${MEETING_MAX_DAYS_AHEAD}`, { field: "startsAt" });
  // Members invited before stay invitable (a follow may have ended since); new ones must be connected.
  const invited = input.participants.filter((id) => id !== hostId && !already.includes(id));
  if (invited.length > 0) {
    // Members the host may invite (as the picker offers them): connected by a follow, no block between.
    const { results } = await env.DB.prepare(
      `SELECT count(*) AS n FROM users u WHERE u.id IN (SELECT value FROM json_each(?1)) AND ${INVITABLE("?2")}`,
    )
      .bind(JSON.stringify(invited), hostId)
      .all<{ n: number }>();
    if (results[0]?.n !== new Set(invited).size) throw new Refused("validation.meetingParticipantUnknown", { field: "participants" });
  }
  return { title: input.title, agenda: input.agenda, startsAt, durationMinutes: input.duration, timeZone: input.timeZone };
}

/**
 * The host's daily budget of outside addresses and the refusal that names it (decision 0032): an
 * account costs only an email code, so a new one gets a few; age or an approved identity earn the rest.
 */
async function invitationBudget(hostId: number, now: number) {
  const established = await env.DB.prepare(
    `SELECT u.created_at <= ?2 OR EXISTS (SELECT 1 FROM verifications v WHERE v.user_id = u.id AND v.status = 'approved') AS yes
       FROM users u WHERE u.id = ?1`,
  )
    .bind(hostId, now - MEETING_NEW_ACCOUNT_DAYS * DAY)
    .first<number>("yes");
  return established
    ? { max: MEETING_OUTSIDE_INVITES_PER_DAY, refusal: `validation.meetingInvitesPerDay|max=${MEETING_OUTSIDE_INVITES_PER_DAY}` }
    : {
        max: MEETING_OUTSIDE_INVITES_NEW_ACCOUNT,
        refusal: `validation.meetingInvitesNewAccount|max=${MEETING_OUTSIDE_INVITES_NEW_ACCOUNT}|days=${MEETING_NEW_ACCOUNT_DAYS}`,
      };
}

/**
 * Takes `count` outside addresses from the host's daily budget, or refuses. One statement,
 * so two forms at once cannot both pass a budget only one fits in; the window restarts a day after it began.
 */
async function reserveInvitations(hostId: number, count: number, now: number) {
  if (count === 0) return;
  const budget = await invitationBudget(hostId, now);
  const reserved = await env.DB.prepare(
    // The first window is checked too: a new account's budget is smaller than one meeting's attendees.
    `INSERT INTO invitation_budgets (host_id, window_start, used) SELECT ?1, ?2, ?3 WHERE ?3 <= ?5
       ON CONFLICT (host_id) DO UPDATE SET
         used = CASE WHEN window_start <= ?2 - ?4 THEN ?3 ELSE used + ?3 END,
         window_start = CASE WHEN window_start <= ?2 - ?4 THEN ?2 ELSE window_start END
       WHERE (CASE WHEN window_start <= ?2 - ?4 THEN ?3 ELSE used + ?3 END) <= ?5
       RETURNING used`,
  )
    .bind(hostId, now, count, DAY, budget.max)
    .first<number>("used");
  if (reserved === null) throw new Refused(budget.refusal, { field: "emails" });
  logEvent("info", "meeting.outside_invitations", { host: hostId, count, today: reserved });
}

/** Gives back what a change that was not made had reserved. */
const releaseInvitations = (hostId: number, count: number) =>
  env.DB.prepare("UPDATE invitation_budgets SET used = max(0, used - ?) WHERE host_id = ?").bind(count, hostId).run();

/**
 * The meeting's attendee and participant lists, written for the meeting with this uid while it is
 * not cancelled; for an edit (`change`), replaced only while that edit is the one that changed it.
 */
function writeLists(uid: string, hostId: number, input: MeetingInput, change?: string) {
  const meetingId = "(SELECT id FROM meetings WHERE uid = ?1 AND cancelled_at IS NULL AND (?2 IS NULL OR change_key = ?2))";
  const statement = (sql: string, ...values: unknown[]) => env.DB.prepare(sql).bind(uid, change ?? null, ...values);
  return [
    ...(change
      ? [
          statement(`DELETE FROM meeting_attendees WHERE meeting_id = ${meetingId}`),
          statement(`DELETE FROM meeting_participants WHERE meeting_id = ${meetingId}`),
        ]
      : []),
    statement(
      `INSERT INTO meeting_attendees (meeting_id, email) SELECT ${meetingId}, e.value FROM json_each(?3) e WHERE ${meetingId} IS NOT NULL`,
      JSON.stringify(input.emails),
    ),
    statement(
      `INSERT OR IGNORE INTO meeting_participants (meeting_id, user_id) SELECT ${meetingId}, p.value FROM json_each(?3) p
       WHERE p.value != ?4 AND ${meetingId} IS NOT NULL`,
      JSON.stringify(input.participants),
      hostId,
    ),
  ];
}

/** The zone a member's meeting times are shown in (their browser's, as their last schedule sent it). */
export const memberZone = async (userId: number) =>
  (await env.DB.prepare("SELECT time_zone FROM users WHERE id = ?").bind(userId).first<string>("time_zone")) ?? "UTC";

/** The zone the host's own times are shown in: their browser's when the form said it, else the first zone they schedule in. */
const hostZone = (hostId: number, input: MeetingInput) =>
  input.myZone && isTimeZone(input.myZone)
    ? env.DB.prepare("UPDATE users SET time_zone = ? WHERE id = ?").bind(input.myZone, hostId)
    : env.DB.prepare("UPDATE users SET time_zone = ? WHERE id = ? AND time_zone = 'UTC'").bind(input.timeZone, hostId);

/** The host's meeting made from this form before (a repeat). */
const madeWith = (hostId: number, clientKey: string | undefined) =>
  env.DB.prepare("SELECT id FROM meetings WHERE host_id = ? AND client_key = ?").bind(hostId, clientKey ?? null);

/**
 * Schedules a meeting; answers its id (`repeat` when this form already made it: nothing new is made
 * or sent); refused (Refused) or failed at the provider (thrown), nothing is kept.
 */
export async function createMeeting(provider: MeetingProvider, hostId: number, input: MeetingInput, now: number) {
  // A repeat is answered before the provider is asked for a room (once.ts).
  const before = input.clientKey ? await madeWith(hostId, input.clientKey).first<number>("id") : null;
  if (before) return { id: before, repeat: true };
  const meeting = await checked(hostId, input, now);
  await reserveInvitations(hostId, input.emails.length, now);
  const room = await provider.create(meeting).catch(async (error: unknown) => {
    await releaseInvitations(hostId, input.emails.length);
    throw error;
  });
  const uid = `${crypto.randomUUID()}@research-commons`;
  let made: Awaited<ReturnType<typeof madeOnce>>;
  try {
    // Two posts of one form at once: the key lets one row in (with its lists); the other's room goes again below.
    made = await madeOnce(
      env.DB.prepare(
        `INSERT INTO meetings (uid, host_id, title, agenda, starts_at, duration_minutes, time_zone, provider, provider_id, join_url, created_at, updated_at, client_key)
             VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (host_id, client_key) DO NOTHING RETURNING id`,
      ).bind(
        uid,
        hostId,
        meeting.title,
        meeting.agenda,
        meeting.startsAt,
        meeting.durationMinutes,
        meeting.timeZone,
        provider.name,
        room.providerId,
        room.joinUrl,
        now,
        now,
        input.clientKey ?? null,
      ),
      madeWith(hostId, input.clientKey),
      [...writeLists(uid, hostId, input), hostZone(hostId, input)],
    );
  } catch (error) {
    await provider.remove(room.providerId).catch(() => {});
    await releaseInvitations(hostId, input.emails.length);
    throw error;
  }
  if (made?.created) return { id: made.id };
  await releaseInvitations(hostId, input.emails.length);
  await provider.remove(room.providerId).catch((error) => console.error("a repeated meeting's room was left", error));
  return { id: made?.id as number, repeat: true };
}

interface OpenMeeting {
  uid: string;
  provider: string;
  provider_id: string;
  sequence: number;
  title: string;
  agenda: string;
  starts_at: number;
  duration_minutes: number;
  time_zone: string;
}

/** The host's meeting as it is before a change, or null (not theirs, cancelled, or started). */
async function hostsOpen(hostId: number, id: number, now: number) {
  return env.DB.prepare(
    `SELECT uid, provider, provider_id, sequence, title, agenda, starts_at, duration_minutes, time_zone FROM meetings
       WHERE id = ? AND host_id = ? AND cancelled_at IS NULL AND starts_at > ?`,
  )
    .bind(id, hostId, now)
    .first<OpenMeeting>();
}

/** The host's link to their meeting, asked of the provider now (null for anyone else, or none). */
export async function hostLink(viewerId: number, id: number, providerOf: ProviderOf) {
  const row = await env.DB.prepare("SELECT provider, provider_id FROM meetings WHERE id = ? AND host_id = ? AND cancelled_at IS NULL")
    .bind(id, viewerId)
    .first<{ provider: string; provider_id: string }>();
  if (!row) return null;
  return providerOf(row.provider)
    .hostLink(row.provider_id)
    .catch((error) => {
      console.error("host link unavailable", error);
      return null;
    });
}

/** Which provider a meeting was made on: it stays there when the configuration changes. */
export type ProviderOf = (name: string) => MeetingProvider;

const sameSet = <T>(a: T[], b: T[]) => a.length === new Set(b).size && b.every((value) => a.includes(value));

/** The meeting's attendee addresses and invited members, as stored now. */
const listsOf = (id: number) => Promise.all([attendeesOf(id), participantsOf(id)]);

/** Whether the meeting (with these lists) already is what the input asks (a repeated edit): nothing to change or announce. */
function alreadyIs(
  open: OpenMeeting,
  [emails, members]: [string[], number[]],
  meeting: ProviderMeeting,
  input: MeetingInput,
  hostId: number,
) {
  return (
    open.title === meeting.title &&
    open.agenda === meeting.agenda &&
    open.starts_at === meeting.startsAt &&
    open.duration_minutes === meeting.durationMinutes &&
    open.time_zone === meeting.timeZone &&
    sameSet(emails, input.emails) &&
    sameSet(
      members,
      input.participants.filter((member) => member !== hostId),
    )
  );
}

/**
 * Changes a meeting (the host only, before it starts); its SEQUENCE goes up. Answers who to tell
 * what: attendee addresses kept, added and removed, and members added and removed. The same edit
 * again changes and announces nothing (`unchanged`); an edit made on an older version than the
 * stored one (`input.sequence`), or one that loses a race with another edit, is refused (409).
 */
export async function updateMeeting(providerOf: ProviderOf, hostId: number, id: number, input: MeetingInput, now: number) {
  const db = env.DB;
  const open = await hostsOpen(hostId, id, now);
  if (!open) return { notFound: true as const };
  const before = await listsOf(id);
  const [emailsBefore, membersBefore] = before;
  const meeting = await checked(hostId, input, now, membersBefore);
  if (alreadyIs(open, before, meeting, input, hostId)) return { unchanged: true as const };
  if (input.sequence !== undefined && input.sequence !== open.sequence) throw new Refused(MEETING_CHANGED, { status: 409 });
  const added = input.emails.filter((email) => !emailsBefore.includes(email)).length;
  await reserveInvitations(hostId, added, now);
  await providerOf(open.provider)
    .update(open.provider_id, meeting)
    .catch(async (error: unknown) => {
      await releaseInvitations(hostId, added);
      throw error;
    });
  // Only the version read above changes, and the lists follow only the edit that changed it: of two
  // edits at once one wins, and an edit racing a cancellation changes nothing.
  const change = crypto.randomUUID();
  const [updated] = await db.batch([
    db
      .prepare(
        `UPDATE meetings SET title = ?, agenda = ?, starts_at = ?, duration_minutes = ?, time_zone = ?, sequence = sequence + 1,
           updated_at = ?, change_key = ? WHERE id = ? AND cancelled_at IS NULL AND sequence = ?`,
      )
      .bind(meeting.title, meeting.agenda, meeting.startsAt, meeting.durationMinutes, meeting.timeZone, now, change, id, open.sequence),
    ...writeLists(open.uid, hostId, input, change),
    hostZone(hostId, input),
  ]);
  if (!updated?.meta.changes) {
    await releaseInvitations(hostId, added);
    const after = await hostsOpen(hostId, id, now);
    if (!after) return { notFound: true as const };
    if (alreadyIs(after, await listsOf(id), meeting, input, hostId)) return { unchanged: true as const };
    // Another edit won: the provider, told this one above, is told the stored one again.
    const stored = {
      title: after.title,
      agenda: after.agenda,
      startsAt: after.starts_at,
      durationMinutes: after.duration_minutes,
      timeZone: after.time_zone,
    };
    await providerOf(open.provider)
      .update(open.provider_id, stored)
      .catch((error) => console.error("the provider keeps a losing edit of a meeting", error));
    throw new Refused(MEETING_CHANGED, { status: 409 });
  }
  const members = input.participants.filter((member) => member !== hostId);
  return {
    emails: {
      kept: input.emails.filter((email) => emailsBefore.includes(email)),
      added: input.emails.filter((email) => !emailsBefore.includes(email)),
      removed: emailsBefore.filter((email) => !input.emails.includes(email)),
    },
    members: {
      added: members.filter((member) => !membersBefore.includes(member)),
      removed: membersBefore.filter((member) => !members.includes(member)),
    },
  };
}

/**
 * Cancels a meeting (the host only): at the provider first, so a provider that fails leaves it as it
 * was (to try again), then here. "already" when it was cancelled before (a repeat changes nothing).
 */
export async function cancelMeeting(providerOf: ProviderOf, hostId: number, id: number, now: number) {
  const db = env.DB;
  const row = await db
    .prepare("SELECT provider, provider_id, cancelled_at FROM meetings WHERE id = ? AND host_id = ?")
    .bind(id, hostId)
    .first<{ provider: string; provider_id: string; cancelled_at: number | null }>();
  if (!row) return false;
  if (row.cancelled_at !== null) return "already";
  await providerOf(row.provider).remove(row.provider_id);
  const cancelled = await db
    .prepare(
      "UPDATE meetings SET cancelled_at = ?, sequence = sequence + 1, updated_at = ? WHERE id = ? AND cancelled_at IS NULL RETURNING 1",
    )
    .bind(now, now, id)
    .first();
  return cancelled ? true : "already";
}

async function participantsOf(id: number) {
  const { results } = await env.DB.prepare("SELECT user_id FROM meeting_participants WHERE meeting_id = ?")
    .bind(id)
    .all<{ user_id: number }>();
  return results.map((row) => row.user_id);
}

async function attendeesOf(id: number) {
  const { results } = await env.DB.prepare("SELECT email FROM meeting_attendees WHERE meeting_id = ? ORDER BY email")
    .bind(id)
    .all<{ email: string }>();
  return results.map((row) => row.email);
}

const VISIBLE = "(m.host_id = ?1 OR EXISTS (SELECT 1 FROM meeting_participants p WHERE p.meeting_id = m.id AND p.user_id = ?1))";
const COLUMNS = `m.id, m.uid, m.host_id, h.nick_name AS host_name, m.title, m.agenda, m.starts_at, m.duration_minutes, m.time_zone,
  m.provider, m.join_url, m.sequence, m.cancelled_at`;

/** A meeting as `viewerId` may see it, or null when they may not (the host and invited members only). */
export async function meetingFor(viewerId: number, id: number): Promise<Meeting | null> {
  const db = env.DB;
  const [meeting, participants, emails] = await db.batch([
    db.prepare(`SELECT ${COLUMNS} FROM meetings m JOIN users h ON h.id = m.host_id WHERE m.id = ?2 AND ${VISIBLE}`).bind(viewerId, id),
    db
      .prepare(
        "SELECT u.id, u.nick_name FROM meeting_participants p JOIN users u ON u.id = p.user_id WHERE p.meeting_id = ? ORDER BY u.nick_name",
      )
      .bind(id),
    db.prepare("SELECT email FROM meeting_attendees WHERE meeting_id = ? ORDER BY email").bind(id),
  ]);
  const row = meeting?.results[0] as Omit<Meeting, "emails" | "participants"> | undefined;
  if (!row) return null;
  return {
    ...row,
    participants: (participants?.results ?? []) as Meeting["participants"],
    // Attendees' addresses are the host's to see.
    emails: row.host_id === viewerId ? ((emails?.results ?? []) as { email: string }[]).map((e) => e.email) : [],
  };
}

export type MeetingSummary = Omit<Meeting, "emails" | "participants">;

/** Whether the room can be entered now: from a little before the start until the end, unless cancelled. */
export const isJoinable = (meeting: MeetingSummary, now: number) =>
  meeting.cancelled_at === null &&
  now >= meeting.starts_at - MEETING_JOIN_EARLY_MINUTES * 60_000 &&
  now < meeting.starts_at + meeting.duration_minutes * 60_000;

/** The viewer's meetings, as host or invited member: those still to come (soonest first) and the rest (latest first). */
export async function listMeetings(viewerId: number, now: number, limit = 100) {
  const db = env.DB;
  const ended = "(m.cancelled_at IS NOT NULL OR m.starts_at + m.duration_minutes * 60000 <= ?2)";
  const [upcoming, past] = await db.batch<MeetingSummary>([
    db
      .prepare(
        `SELECT ${COLUMNS} FROM meetings m JOIN users h ON h.id = m.host_id WHERE ${VISIBLE} AND NOT ${ended} ORDER BY m.starts_at LIMIT ?3`,
      )
      .bind(viewerId, now, limit),
    db
      .prepare(
        `SELECT ${COLUMNS} FROM meetings m JOIN users h ON h.id = m.host_id WHERE ${VISIBLE} AND ${ended} ORDER BY m.starts_at DESC LIMIT ?3`,
      )
      .bind(viewerId, now, limit),
  ]);
  return { upcoming: upcoming?.results ?? [], past: past?.results ?? [] };
}

/** SQL true when member `u` may be invited by `host`: not deleted, connected by a follow either way, no block between. */
const INVITABLE = (host: string) =>
  `u.deleted_at IS NULL AND u.id != ${host}
   AND u.id IN (SELECT followee_id FROM follows WHERE follower_id = ${host} UNION SELECT follower_id FROM follows WHERE followee_id = ${host})
   AND NOT ${BLOCKED_BETWEEN(host, "u.id")}`;

/** Members the host can invite: those they follow or who follow them (a picker without JavaScript). */
export async function invitableMembers(hostId: number) {
  const { results } = await env.DB.prepare(`SELECT u.id, u.nick_name FROM users u WHERE ${INVITABLE("?1")} ORDER BY u.nick_name LIMIT 500`)
    .bind(hostId)
    .all<{ id: number; nick_name: string }>();
  return results;
}
