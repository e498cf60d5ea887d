import { env } from "~/.server/bindings";
import { notify } from "~/.server/notifications/notifications";
import { Refused } from "~/.server/refused";
import type { MeetingInput } from "~/lib/schemas/meeting";
import type { Meeting } from "~/lib/shapes";
import { queueMeetingMail } from "./mail-jobs";
import { cancelMeeting, createMeeting, meetingFor, updateMeeting } from "./meetings";
import { meetingProvider } from "./provider";
import { ZoomError } from "./zoom";

// What the page and the API do with a meeting: the change, then the invitations, queued to be mailed
// in the host's language (mail-jobs.ts), and the members' notifications, pushed live after the answer (`later`).

export interface Scheduler {
  hostId: number;
  language: string;
  /** This site's origin, for the stop link in mail to outside addresses. */
  origin?: string;
  now: number;
  later: (work: Promise<unknown>) => void;
}

/** The provider failed (or asked us to slow down: `busy`): nothing was made or changed here (502). */
export class ProviderUnavailable extends Refused {
  constructor(readonly busy: boolean) {
    super(busy ? "validation.meetingProviderBusy" : "validation.meetingProviderFailed", { status: 502 });
  }
}

async function viaProvider<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    // The service's own refusals (bad input, the budget, a stale edit) pass as they are.
    if (error instanceof Refused) throw error;
    console.error("meeting provider failed", error);
    throw new ProviderUnavailable(error instanceof ZoomError && error.rateLimited);
  }
}

type Kind = "invite" | "update" | "cancel";

/** Queues mail to these attendee addresses about the meeting. */
function mail(who: Scheduler, meeting: Meeting, kind: Kind, emails: string[]) {
  return queueMeetingMail(meeting, kind, emails, who.language, who.origin);
}

/** Notifies these members; their pages hear of it after the answer. */
function tell(who: Scheduler, meeting: Meeting, kind: Kind, members: number[]) {
  const key = `meeting:${meeting.id}:${meeting.sequence}`;
  const notes = members.map((userId) => ({
    userId,
    kind: "meeting" as const,
    event: kind,
    key,
    subjectId: meeting.id,
    actorId: who.hostId,
  }));
  return notify(notes, who.now, who.later);
}

const current = (who: Scheduler, id: number) => meetingFor(who.hostId, id);
const ids = (meeting: Meeting) => meeting.participants.map((member) => member.id);

export async function schedule(who: Scheduler, input: MeetingInput) {
  const created = await viaProvider(() => createMeeting(meetingProvider(), who.hostId, input, who.now));
  // A repeat of the same form (a double click, or the retry of a post that failed after making the
  // meeting) queues the invitations again: their idempotency and notification keys are the same, so
  // nobody hears twice, and what the failed post did not queue goes out. Only while it is unchanged.
  const found = created.id !== undefined ? await current(who, created.id) : null;
  const meeting = found && found.sequence === 0 && found.cancelled_at === null ? found : null;
  if (meeting) {
    await mail(who, meeting, "invite", meeting.emails);
    await tell(who, meeting, "invite", ids(meeting));
  }
  return created;
}

export async function reschedule(who: Scheduler, id: number, input: MeetingInput) {
  const updated = await viaProvider(() => updateMeeting(meetingProvider, who.hostId, id, input, who.now));
  const meeting = updated.emails ? await current(who, id) : null;
  // A meeting cancelled meanwhile is only ever announced as cancelled (by the cancellation).
  if (meeting && updated.emails && updated.members && meeting.cancelled_at === null) {
    const { emails, members } = updated;
    await mail(who, meeting, "update", emails.kept);
    await mail(who, meeting, "invite", emails.added);
    // Addresses and members taken off hear that it is off for them.
    await mail(who, meeting, "cancel", emails.removed);
    await tell(who, meeting, "invite", members.added);
    await tell(
      who,
      meeting,
      "update",
      ids(meeting).filter((member) => !members.added.includes(member)),
    );
    await tell(who, meeting, "cancel", members.removed);
  }
  return updated;
}

/** Cancels (true, or "already" for a repeat); false when it is not the member's to cancel. */
export async function cancel(who: Scheduler, id: number) {
  const cancelled = await viaProvider(() => cancelMeeting(meetingProvider, who.hostId, id, who.now));
  const meeting = cancelled === true ? await current(who, id) : null;
  if (meeting) {
    await mail(who, meeting, "cancel", meeting.emails);
    await tell(who, meeting, "cancel", ids(meeting));
  }
  return cancelled;
}

/**
 * An account going: the meetings it hosts that have not ended are cancelled first, so attendees and
 * members hear of it and the provider's rooms go. A provider failure does not stop the deletion.
 */
export async function cancelHosted(who: Scheduler) {
  const { results } = await env.DB.prepare(
    "SELECT id FROM meetings WHERE host_id = ? AND cancelled_at IS NULL AND starts_at + duration_minutes * 60000 > ?",
  )
    .bind(who.hostId, who.now)
    .all<{ id: number }>();
  for (const { id } of results)
    await cancel(who, id).catch((error) => console.error("a meeting was not cancelled with its host's account", error));
}
