import { env } from "cloudflare:workers";
import { describe, expect, it, vi } from "vitest";
import type { Job } from "~/.server/jobs/jobs";
import { enqueue } from "~/.server/jobs/queue";
import { sendMeetingMail } from "~/.server/meetings/mail-jobs";
import type { Meeting } from "~/lib/shapes";
import { newMember, outboxFor, uniqueEmail } from "./helpers";

/** A queue that records each sendBatch, refusing what the real one refuses (over 100 messages or 256 KB). */
/** Records the batches enqueue() sends to the jobs queue (refusing one the real queue would refuse) instead of sending them. */
function recordingQueue() {
  const batches: { count: number; bytes: number }[] = [];
  const spy = vi.spyOn(env.JOBS, "sendBatch").mockImplementation(async (messages) => {
    const list = [...messages];
    const bytes = list.reduce((total, m) => total + new TextEncoder().encode(JSON.stringify(m.body)).length, 0);
    if (list.length > 100 || bytes > 256 * 1024) throw new Error("batch refused");
    batches.push({ count: list.length, bytes });
    return {} as QueueSendBatchResponse;
  });
  return { batches, restore: () => spy.mockRestore() };
}

const meeting = (over: Partial<Meeting> = {}): Meeting => ({
  id: 1,
  uid: "uid-1@test",
  host_id: 1,
  host_name: "Host",
  title: "Sync",
  // The longest agenda, in a script of 3 UTF-8 bytes a character.
  agenda: "議".repeat(2000),
  starts_at: Date.UTC(2026, 11, 1, 10),
  duration_minutes: 30,
  time_zone: "UTC",
  provider: "jitsi",
  join_url: "https://meet.example/x",
  sequence: 0,
  cancelled_at: null,
  emails: [],
  participants: [],
  ...over,
});

describe("the jobs queue", () => {
  it("splits what it sends into batches the queue accepts, by count and by size", async () => {
    const { batches, restore } = recordingQueue();
    const mails: Job[] = Array.from({ length: 50 }, (_, i) => ({
      type: "meeting-mail",
      meeting: meeting(),
      kind: "invite",
      email: `a${i}@b.example`,
      language: "ja",
    }));
    await enqueue(mails);
    expect(batches.reduce((total, b) => total + b.count, 0)).toBe(50);
    expect(batches.length).toBeGreaterThan(1);
    const small: Job[] = Array.from({ length: 250 }, (_, i) => ({ type: "cleanup", at: i }));
    const before = batches.length;
    await enqueue(small);
    expect(batches.slice(before).map((b) => b.count)).toEqual([100, 100, 50]);
    restore();
  });

  it("does not send an invitation to a meeting cancelled or gone since, but does send its cancellation", async () => {
    const host = await newMember("Host");
    const { id } = (await env.DB.prepare(
      `INSERT INTO meetings (uid, host_id, title, agenda, starts_at, duration_minutes, time_zone, provider, provider_id, join_url, sequence, cancelled_at, created_at, updated_at)
       VALUES ('u-1@test', ?, 'Sync', 'a', 1, 30, 'UTC', 'jitsi', 'p-1', 'https://meet.example/x', 1, 5, 1, 1) RETURNING id`,
    )
      .bind(host)
      .first<{ id: number }>()) ?? { id: 0 };
    const email = uniqueEmail("late");
    const job = (kind: "invite" | "cancel", meetingId: number) =>
      ({ type: "meeting-mail", meeting: meeting({ id: meetingId, agenda: "a" }), kind, email, language: "en" }) as const;
    await sendMeetingMail(job("invite", id));
    await sendMeetingMail(job("invite", 999_999));
    expect(await outboxFor(email)).toHaveLength(0);
    await sendMeetingMail(job("cancel", 999_999));
    expect((await outboxFor(email)).map((mail) => mail.subject)).toEqual(["Cancelled: Sync"]);
  });

  it("does not send what a newer change superseded, when jobs run late or out of order", async () => {
    const host = await newMember("Host");
    const [back, gone] = [uniqueEmail("back"), uniqueEmail("gone")];
    const { id } = (await env.DB.prepare(
      `INSERT INTO meetings (uid, host_id, title, agenda, starts_at, duration_minutes, time_zone, provider, provider_id, join_url, sequence, created_at, updated_at)
       VALUES ('u-2@test', ?, 'Sync', 'a', 1, 30, 'UTC', 'jitsi', 'p-2', 'https://meet.example/x', 2, 1, 1) RETURNING id`,
    )
      .bind(host)
      .first<{ id: number }>()) ?? { id: 0 };
    // `back` was taken off at version 1 and invited again at version 2; `gone` was taken off.
    await env.DB.prepare("INSERT INTO meeting_attendees (meeting_id, email) VALUES (?, ?)").bind(id, back).run();
    const job = (kind: "invite" | "update" | "cancel", email: string, sequence: number) =>
      ({ type: "meeting-mail", meeting: meeting({ id, sequence, agenda: "a" }), kind, email, language: "en" }) as const;
    await sendMeetingMail(job("update", back, 1)); // an older version's update
    await sendMeetingMail(job("cancel", back, 1)); // the removal, after the address came back
    expect(await outboxFor(back)).toHaveLength(0);
    await sendMeetingMail(job("invite", back, 2));
    await sendMeetingMail(job("cancel", gone, 1));
    expect((await outboxFor(back)).map((mail) => mail.subject)).toEqual(["Invitation: Sync"]);
    expect((await outboxFor(gone)).map((mail) => mail.subject)).toEqual(["Cancelled: Sync"]);
  });
});
