import { env } from "~/.server/bindings";
import type { MeetingMailJob } from "~/.server/jobs/jobs";
import { enqueue } from "~/.server/jobs/queue";
import { optedOut } from "~/.server/mail/opt-out";
import { mailsAtOnce } from "~/.server/notifications/notifications";
import { sha256Hex } from "~/.server/security/crypto";
import type { InvitationKind, Meeting } from "~/lib/shapes";
import { sendInvitation } from "./invitations";

// Mail to a meeting's attendees goes through the jobs queue, one job per address
// (docs/decisions/0025-background-jobs.md): the request only queues it, a provider failure is
// retried instead of lost, and the provider's idempotency key keeps a repeated job from mailing twice.

/** Queues the mail of one change to these addresses. */
export async function queueMeetingMail(meeting: Meeting, kind: InvitationKind, emails: string[], language: string, origin?: string) {
  // The lists stay out of each job: a job only needs its own address.
  const announced = { ...meeting, emails: [], participants: [] };
  await enqueue(emails.map((email) => ({ type: "meeting-mail", meeting: announced, kind, email, language, origin })));
}

/**
 * Sends one queued mail. Jobs may run late or out of order, so what a newer change superseded is not
 * sent: an invitation or update of a version replaced since (the newer change queued its own) or of
 * a meeting cancelled or gone, and a cancellation to an address invited again since.
 */
export async function sendMeetingMail(job: MeetingMailJob) {
  const { meeting } = job;
  const current = await env.DB.prepare(
    `SELECT m.sequence, m.cancelled_at, EXISTS (SELECT 1 FROM meeting_attendees a WHERE a.meeting_id = m.id AND a.email = ?2) AS attending
       FROM meetings m WHERE m.id = ?1`,
  )
    .bind(meeting.id, job.email)
    .first<{ sequence: number; cancelled_at: number | null; attending: number }>();
  if (job.kind === "cancel") {
    if (current && current.cancelled_at === null && current.attending) return;
  } else if (!current || current.cancelled_at !== null || current.sequence !== meeting.sequence) return;
  // Whoever owns the address asked for no more (the stop link in an earlier one), or is a member
  // who chose to hear of meetings otherwise (in the app, in a digest).
  if (await optedOut(job.email)) return;
  const member = await env.DB.prepare("SELECT id FROM users WHERE email = ? AND deleted_at IS NULL").bind(job.email).first<number>("id");
  if (member !== null && !(await mailsAtOnce(member, "meeting"))) return;
  const address = await sha256Hex(job.email);
  const key = `meeting-${meeting.id}-${meeting.sequence}-${job.kind}-${address}`;
  await sendInvitation(meeting, job.email, job.kind, job.language, key, job.origin);
}
