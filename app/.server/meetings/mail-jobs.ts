import { env } from "~/.server/bindings";
import { enqueue } from "~/.server/jobs/queue";
import { type InvitationKind, sendInvitation } from "./invitations";
import { type Meeting, meetingFor } from "./meetings";

// Mail to a meeting's attendees goes through the jobs queue, one job per address
// (docs/decisions/0025-background-jobs.md): the request only queues it, a provider failure is
// retried instead of lost, and the provider's idempotency key keeps a repeated job from mailing twice.

export interface MeetingMailJob {
  type: "meeting-mail";
  meetingId: number;
  hostId: number;
  /** The version the mail announces; part of its idempotency key. */
  sequence: number;
  kind: InvitationKind;
  email: string;
  language: string;
}

/** Queues the mail of one change to these addresses. */
export async function queueMeetingMail(meeting: Meeting, hostId: number, kind: InvitationKind, emails: string[], language: string) {
  await enqueue(
    env.JOBS,
    emails.map((email) => ({ type: "meeting-mail", meetingId: meeting.id, hostId, sequence: meeting.sequence, kind, email, language })),
  );
}

/** Sends one queued mail with the meeting as it is now; a meeting cancelled since is only ever announced as cancelled. */
export async function sendMeetingMail(db: D1Database, job: MeetingMailJob) {
  const meeting = await meetingFor(db, job.hostId, job.meetingId);
  if (!meeting || (meeting.cancelled_at !== null && job.kind !== "cancel")) return;
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(job.email));
  const address = [...new Uint8Array(digest)].map((byte) => byte.toString(16).padStart(2, "0")).join("");
  await sendInvitation(meeting, job.email, job.kind, job.language, `meeting-${job.meetingId}-${job.sequence}-${job.kind}-${address}`);
}
