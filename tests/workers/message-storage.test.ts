import { createExecutionContext, createMessageBatch, evictDurableObject, getQueueResult, runDurableObjectAlarm } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import type { Job } from "~/.server/jobs/jobs";
import { listConversations, startConversation, unreadTotal } from "~/.server/messaging/conversations";
import { conversationRoom, memberInbox } from "~/.server/messaging/live";
import { conversationOfMessage } from "~/.server/messaging/room-store";
import { openReports } from "~/.server/moderation/reports";
import { consumeJobs } from "../../workers/queues";
import { history, newMember, sendMessage } from "./helpers";

// Messages in their conversation's Durable Object and unread counts in each member's inbox object
// (docs/decisions/0028-messages-in-their-conversation.md), against the real objects.

async function conversation(a: number, b: number) {
  const started = await startConversation(a, b, Date.now());
  return started.id;
}

describe("a conversation's messages in its own object", () => {
  it("are stored once and in order through a restart of the object, resends included", async () => {
    const [a, b] = [await newMember("Ana"), await newMember("Ben")];
    const id = await conversation(a, b);
    const ids = Array.from({ length: 30 }, (_, i) => `restart-${i}-${crypto.randomUUID()}`);
    const first = await Promise.all(ids.slice(0, 15).map((cid, i) => sendMessage(id, i % 2 ? a : b, `m${i}`, cid)));
    await evictDurableObject(conversationRoom(id));
    // After the restart: the rest, and every earlier client id again, all at once.
    const second = await Promise.all(ids.map((cid, i) => sendMessage(id, i % 2 ? a : b, `m${i}`, cid)));
    expect(second.slice(0, 15).map((s) => s?.created)).toEqual(Array(15).fill(false));
    expect(second.slice(0, 15).map((s) => s?.message.id)).toEqual(first.map((s) => s?.message.id));
    const stored = (await history(id, { limit: 100 })).messages;
    expect(stored).toHaveLength(30);
    expect(new Set(stored.map((m) => m.client_id))).toEqual(new Set(ids));
    // Ids increase in the order stored, and name their conversation.
    expect(stored.map((m) => m.id)).toEqual(stored.map((m) => m.id).sort((x, y) => x - y));
    expect(stored.every((m) => conversationOfMessage(m.id) === id && m.conversation_id === id)).toBe(true);
  });

  it("keep every inbox's counts right under concurrent sends in many conversations", async () => {
    const reader = await newMember("Reader");
    const writers = await Promise.all(Array.from({ length: 8 }, (_, i) => newMember(`Writer ${i}`)));
    const ids = await Promise.all(writers.map((w) => conversation(reader, w)));
    // Eight conversations, six messages each, all at once; the reader answers in every other one meanwhile.
    await Promise.all([
      ...ids.flatMap((id, i) => Array.from({ length: 6 }, (_, n) => sendMessage(id, writers[i] ?? 0, `n${n}`))),
      ...ids.filter((_, i) => i % 2 === 0).map((id) => conversationRoom(id).read(id, reader)),
    ]);
    const listed = await listConversations(reader);
    for (const [i, id] of ids.entries()) {
      const entry = listed.find((c) => c.id === id);
      expect(entry?.last_message?.body).toBe((await history(id, { limit: 1 })).messages[0]?.body);
      // Where the reader read meanwhile, some of the six were read; elsewhere all six are unread.
      if (i % 2 === 1) expect(entry?.unread_count).toBe(6);
      else expect(entry?.unread_count).toBeLessThanOrEqual(6);
    }
    expect(await unreadTotal(reader)).toBe(listed.filter((c) => ids.includes(c.id)).reduce((n, c) => n + c.unread_count, 0));
    // Read everything, concurrently: every count goes to zero, and the writers have none.
    await Promise.all(ids.map((id) => conversationRoom(id).read(id, reader)));
    expect(await unreadTotal(reader)).toBe(0);
    for (const w of writers) expect(await unreadTotal(w)).toBe(0);
    // One more message in each: exactly one unread per conversation.
    await Promise.all(ids.map((id, i) => sendMessage(id, writers[i] ?? 0, "last")));
    expect(await unreadTotal(reader)).toBe(ids.length);
    expect((await listConversations(reader)).filter((c) => ids.includes(c.id)).map((c) => c.unread_count)).toEqual(
      Array(ids.length).fill(1),
    );
  });
  it("reach an inbox that lost them: the room's alarm, armed with the change, tells both members again", async () => {
    const [a, b] = [await newMember("Sender"), await newMember("Inbox lost")];
    const id = await conversation(a, b);
    await sendMessage(id, a, "one");
    await sendMessage(id, a, "two");
    expect(await unreadTotal(b)).toBe(2);
    // As if the update had never arrived (the inbox was unreachable, or the room crashed before telling it).
    await memberInbox(b).clear();
    expect(await unreadTotal(b)).toBe(0);
    expect(await runDurableObjectAlarm(conversationRoom(id))).toBe(true);
    expect(await unreadTotal(b)).toBe(2);
    expect((await listConversations(b)).find((c) => c.id === id)?.last_message?.body).toBe("two");
  });
});

describe("messages stored in D1 before each conversation had its object", () => {
  async function legacy() {
    const [a, b] = [await newMember("Old A"), await newMember("Old B")];
    const id = await conversation(a, b);
    const rows = [
      [a, "old-1", "first", 10, null],
      [b, "old-2", "second", 11, null],
      [a, "old-3", "hidden by a moderator", 12, 50],
      [a, "old-4", "fourth", 13, null],
      [a, "old-5", "fifth", 14, null],
    ] as const;
    const inserted = await env.DB.batch(
      rows.map(([sender, cid, body, at, hidden]) =>
        env.DB.prepare(
          "INSERT INTO messages (conversation_id, sender_id, client_id, body, created_at, hidden_at) VALUES (?, ?, ?, ?, ?, ?) RETURNING id",
        ).bind(id, sender, cid, body, at, hidden),
      ),
    );
    const oldIds = inserted.map((r) => (r.results[0] as { id: number }).id);
    // B has read up to "second", A (who sent last) everything; B reported the fourth message.
    const readUpTo = "UPDATE conversation_members SET last_read_id = ? WHERE conversation_id = ? AND user_id = ?";
    await env.DB.batch([env.DB.prepare(readUpTo).bind(oldIds[1], id, b), env.DB.prepare(readUpTo).bind(oldIds[4], id, a)]);
    await env.DB.prepare(
      "INSERT INTO reports (reporter_id, target_type, target_id, reason, details, created_at) VALUES (?, 'message', ?, 'spam', '', 1)",
    )
      .bind(b, oldIds[3])
      .run();
    return { a, b, id, oldIds };
  }

  it("move into the conversation's object once, in order, with read positions, hidden marks and reports", async () => {
    const { a, b, id } = await legacy();
    // The move job, delivered twice, and the room's own first use: the messages move once.
    for (const _ of [1, 2]) {
      const batch = createMessageBatch<Job>("research-commons-jobs", [
        { id: crypto.randomUUID(), timestamp: new Date(), attempts: 1, body: { type: "messages-move" } },
      ]);
      const ctx = createExecutionContext();
      await consumeJobs(batch);
      expect((await getQueueResult(batch, ctx)).retryMessages).toEqual([]);
    }
    await conversationRoom(id).settle(id);
    const moved = (await history(id, { limit: 100 })).messages;
    expect(moved.map((m) => m.body)).toEqual(["first", "second", "fourth", "fifth"]);
    expect(moved.every((m) => conversationOfMessage(m.id) === id)).toBe(true);
    const left = await env.DB.prepare("SELECT count(*) AS n FROM messages WHERE conversation_id = ?").bind(id).first<number>("n");
    expect(left).toBe(0);
    // B had read up to "second": "fourth" and "fifth" are unread (the hidden one never counts).
    expect(await unreadTotal(b)).toBe(2);
    expect(await unreadTotal(a)).toBe(0);
    expect((await listConversations(b)).find((c) => c.id === id)?.last_message?.body).toBe("fifth");
    // The report now names the message's new id.
    const reported = await env.DB.prepare("SELECT target_id FROM reports WHERE reporter_id = ? AND target_type = 'message'")
      .bind(b)
      .first<number>("target_id");
    expect(reported).toBe(moved[2]?.id);
    // Sending after the move goes after the moved messages.
    const next = await sendMessage(id, a, "new");
    expect(next?.message.id).toBeGreaterThan(moved.at(-1)?.id ?? Number.POSITIVE_INFINITY);
  });

  it("reach the moderation queue under their new ids, with their text, when a report on one is open", async () => {
    const { id } = await legacy();
    const queued = (await openReports()).filter((r) => r.target_type === "message" && conversationOfMessage(r.target_id) === id);
    expect(queued.map((r) => r.preview)).toEqual(["fourth"]);
  });

  it("reach a member's badge and list on their first page load, before any job ran", async () => {
    const { b, id } = await legacy();
    expect(await unreadTotal(b)).toBe(2);
    expect((await listConversations(b)).find((c) => c.id === id)).toMatchObject({ unread_count: 2, last_message: { body: "fifth" } });
  });
});
