import { env } from "~/.server/bindings";
import { enqueue } from "~/.server/jobs/queue";
import { type InvitationKind, sendInvitation } from "./invitations";
import type { Meeting } from "./meetings";

// Mail to a meeting's attendees goes through the jobs queue, one job per address
// (docs/decisions/0025-background-jobs.md): the request only queues it, a provider failure is
// retried instead of lost, and the provider's idempotency key keeps a repeated job from mailing twice.

export interface MeetingMailJob {
  type: "meeting-mail";
  /** The meeting as announced: a cancellation still goes out after its meeting was deleted with its host's account. */
  meeting: Meeting;
  kind: InvitationKind;
  email: string;
  language: string;
}

/** Queues the mail of one change to these addresses. */
export async function queueMeetingMail(meeting: Meeting, kind: InvitationKind, emails: string[], language: string) {
  // The lists stay out of each job: a job only needs its own address.
  const announced = { ...meeting, emails: [], participants: [] };
  await enqueue(
    env.JOBS,
    emails.map((email) => ({ type: "meeting-mail", meeting: announced, kind, email, language })),
  );
}

/** Sends one queued mail; an invitation or update of a meeting cancelled or gone since is not sent. */
export async function sendMeetingMail(db: D1Database, job: MeetingMailJob) {
  const { meeting } = job;
  if (job.kind !== "cancel") {
    const current = await db
      .prepare("SELECT cancelled_at FROM meetings WHERE id = ?")
      .bind(meeting.id)
      .first<{ cancelled_at: number | null }>();
    if (!current || current.cancelled_at !== null) return;
  }
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(job.email));
  const address = [...new Uint8Array(digest)].map((byte) => byte.toString(16).padStart(2, "0")).join("");
  await sendInvitation(meeting, job.email, job.kind, job.language, `meeting-${meeting.id}-${meeting.sequence}-${job.kind}-${address}`);
}
