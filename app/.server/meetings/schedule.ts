import { env } from "~/.server/bindings";
import { notify } from "~/.server/notifications/notifications";
import type { MeetingInput } from "~/lib/schemas/meeting";
import { sendInvitations } from "./invitations";
import { cancelMeeting, createMeeting, meetingFor, updateMeeting } from "./meetings";
import { meetingProvider } from "./provider";
import { ZoomError } from "./zoom";

// What the page and the API do with a meeting: the change, then the invitations, mailed after the
// answer (`later`) in the host's language.

export interface Scheduler {
  hostId: number;
  language: string;
  now: number;
  later: (work: Promise<unknown>) => void;
}

/** The provider failed (or asked us to slow down: `busy`): nothing was made or changed here. */
export class ProviderUnavailable extends Error {
  constructor(readonly busy: boolean) {
    super(busy ? "the conferencing provider is rate limiting" : "the conferencing provider failed");
  }
}

/** The message a member reads for it. */
export const providerMessage = (error: ProviderUnavailable) =>
  error.busy ? "validation.meetingProviderBusy" : "validation.meetingProviderFailed";

async function viaProvider<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    console.error("meeting provider failed", error);
    throw new ProviderUnavailable(error instanceof ZoomError && error.rateLimited);
  }
}

/**
 * Mails the attendees (`only` these addresses, if given) and notifies the invited members (with
 * every change, `notifyMembers`). A meeting cancelled meanwhile is only ever announced as cancelled.
 */
async function tell(who: Scheduler, id: number, kind: "invite" | "update" | "cancel", only?: string[], notifyMembers = !only) {
  const meeting = await meetingFor(env.DB, who.hostId, id);
  if (!meeting || (meeting.cancelled_at !== null && kind !== "cancel")) return;
  const to = only ?? meeting.emails;
  if (to.length > 0) who.later(sendInvitations(meeting, to, kind, who.language));
  if (!notifyMembers) return;
  const notes = meeting.participants.map((member) => ({
    userId: member.id,
    kind: "meeting" as const,
    event: kind,
    key: `meeting:${id}:${meeting.sequence}`,
    subjectId: id,
    actorId: who.hostId,
  }));
  await notify(env.DB, notes, who.now);
}

export async function schedule(who: Scheduler, input: MeetingInput) {
  const created = await viaProvider(() => createMeeting(env.DB, meetingProvider(), who.hostId, input, who.now));
  if (created.id !== undefined) await tell(who, created.id, "invite");
  return created;
}

export async function reschedule(who: Scheduler, id: number, input: MeetingInput) {
  const updated = await viaProvider(() => updateMeeting(env.DB, meetingProvider(), who.hostId, id, input, who.now));
  if (updated.removed) {
    await tell(who, id, "update", updated.kept, true);
    // New addresses are invited; addresses taken off the list hear that it is off for them.
    if (updated.added.length > 0) await tell(who, id, "invite", updated.added);
    if (updated.removed.length > 0) await tell(who, id, "cancel", updated.removed);
  }
  return updated;
}

export async function cancel(who: Scheduler, id: number) {
  const cancelled = await viaProvider(() => cancelMeeting(env.DB, meetingProvider(), who.hostId, id, who.now));
  if (cancelled) await tell(who, id, "cancel");
  return cancelled;
}
