import { env } from "~/.server/bindings";
import type { MeetingInput } from "~/lib/schemas/meeting";
import { sendInvitations } from "./invitations";
import { cancelMeeting, createMeeting, meetingFor, updateMeeting } from "./meetings";
import { meetingProvider } from "./provider";

// What the page and the API do with a meeting: the change, then the invitations, mailed after the
// answer (`later`) in the host's language.

export interface Scheduler {
  hostId: number;
  language: string;
  now: number;
  later: (work: Promise<unknown>) => void;
}

/** The provider failed: nothing was made or changed here. */
export class ProviderUnavailable extends Error {}

async function viaProvider<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    console.error("meeting provider failed", error);
    throw new ProviderUnavailable("the conferencing provider failed");
  }
}

async function mail(
  who: Scheduler,
  id: number,
  emails: ((meeting: { emails: string[] }) => string[]) | null,
  kind: "invite" | "update" | "cancel",
) {
  const meeting = await meetingFor(env.DB, who.hostId, id);
  if (!meeting) return;
  const to = emails ? emails(meeting) : meeting.emails;
  if (to.length > 0) who.later(sendInvitations(meeting, to, kind, who.language));
}

export async function schedule(who: Scheduler, input: MeetingInput) {
  const created = await viaProvider(() => createMeeting(env.DB, meetingProvider(), who.hostId, input, who.now));
  if (created.id !== undefined) await mail(who, created.id, null, "invite");
  return created;
}

export async function reschedule(who: Scheduler, id: number, input: MeetingInput) {
  const updated = await viaProvider(() => updateMeeting(env.DB, meetingProvider(), who.hostId, id, input, who.now));
  const { removed } = updated;
  if (removed) {
    await mail(who, id, null, "update");
    // Addresses taken off the list hear that it is off for them.
    if (removed.length > 0) await mail(who, id, () => removed, "cancel");
  }
  return updated;
}

export async function cancel(who: Scheduler, id: number) {
  const cancelled = await viaProvider(() => cancelMeeting(env.DB, meetingProvider(), who.hostId, id, who.now));
  if (cancelled) await mail(who, id, null, "cancel");
  return cancelled;
}
