import { createMessageBatch, evictDurableObject, runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { logout } from "~/.server/accounts/accounts";
import { createSession, SESSION_TOUCH_MS } from "~/.server/accounts/sessions";
import type { Job } from "~/.server/jobs/jobs";
import { listConversations, startConversation, unreadTotal } from "~/.server/messaging/conversations";
import { conversationRoom } from "~/.server/messaging/live";
import { listNotifications } from "~/.server/notifications/notifications";
import { handleSocket } from "~/.server/web/sockets";
import { handleApi } from "~/api/router";
import { SESSION_IDLE_MS } from "~/lib/config";
import { MESSAGE_MAX } from "~/lib/limits";
import { SESSION_ENDED_CLOSE } from "~/lib/live-connection";
import type { LiveEvent } from "~/lib/shapes";
import * as message from "~/routes/message";
import { consumeJobs } from "../../workers/queues";
import { d1Statements, history, newMember, testCaller } from "./helpers";
import { callRoute } from "./route";

const clientId = () => crypto.randomUUID();

/** The value of a call that the test expects to succeed (not refused by a block, not missing). */
function must<T>(value: T | null | "refused" | "not-member"): T {
  if (value === null || value === "refused" || value === "not-member") throw new Error("expected a value");
  return value;
}

async function pair() {
  const a = await newMember("Alice");
  const b = await newMember("Bob");
  const started = must(await startConversation(a, b, Date.now()));
  return { a, b, id: started.id, room: conversationRoom(started.id) };
}

/** Opens a socket the way a page does: through the worker's authenticating route. */
async function openSocket(path: string, userId: number | null, headers: Record<string, string> = {}, token?: string) {
  const all: Record<string, string> = { Upgrade: "websocket", ...headers };
  if (userId !== null) all.Cookie = `token=Bearer%20${token ?? (await createSession(userId, Date.now()))}`;
  const res = await handleSocket(new Request(`https://app.test${path}`, { headers: all }));
  const socket = res.webSocket;
  const closed: number[] = [];
  if (!socket) return { status: res.status, socket: null, events: [] as LiveEvent[], closed };
  socket.accept();
  const events: LiveEvent[] = [];
  socket.addEventListener("message", (e) => {
    events.push(JSON.parse(String(e.data)));
  });
  socket.addEventListener("close", (e) => closed.push(e.code));
  return { status: res.status, socket, events, closed };
}

async function until<T>(check: () => T | undefined, ms = 25_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const value = check();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > end) throw new Error("timed out");
    await new Promise((r) => setTimeout(r, 10));
  }
}

describe("sockets and the session that opened them", () => {
  it("close at once when the session logs out, and a send on one after that stores nothing", async () => {
    const { a, id } = await pair();
    const token = await createSession(a, Date.now());
    const other = await openSocket(`/live/conversations/${id}`, a); // another session of Alice's
    const page = await openSocket(`/live/conversations/${id}`, a, {}, token);
    const inbox = await openSocket("/live/inbox", a, {}, token);
    await logout(token);
    expect(await until(() => page.closed[0])).toBe(SESSION_ENDED_CLOSE);
    expect(await until(() => inbox.closed[0])).toBe(SESSION_ENDED_CLOSE);
    try {
      page.socket?.send(JSON.stringify({ type: "send", body: "after logout", client_id: clientId() }));
    } catch {
      // closed: the send cannot even leave
    }
    other.socket?.send(JSON.stringify({ type: "send", body: "from the other session", client_id: clientId() }));
    await until(() => other.events.find((e) => e.type === "ack"));
    expect((await history(id)).messages.map((m) => m.body)).toEqual(["from the other session"]);
    expect(other.closed).toEqual([]);
  });

  it("refuse every event once the session is gone, however it ended (here: deleted behind the room's back)", async () => {
    const { a, id, room } = await pair();
    const token = await createSession(a, Date.now());
    const page = await openSocket(`/live/conversations/${id}`, a, {}, token);
    // The row ends and nobody tells the room; the socket last checked its session a minute ago.
    await env.DB.prepare("DELETE FROM sessions WHERE user_id = ?").bind(a).run();
    await runInDurableObject(room, (_, state: DurableObjectState) => {
      for (const socket of state.getWebSockets())
        socket.serializeAttachment({ ...socket.deserializeAttachment(), seenAt: Date.now() - SESSION_TOUCH_MS });
    });
    page.socket?.send(JSON.stringify({ type: "send", body: "too late", client_id: clientId() }));
    expect(await until(() => page.closed[0])).toBe(SESSION_ENDED_CLOSE);
    expect((await history(id)).messages).toEqual([]);
    expect(page.events.find((e) => e.type === "ack")).toBeUndefined();
  });

  it("stop receiving relays once the session has gone idle, without waiting for the socket's next event", async () => {
    const { a, b, id, room } = await pair();
    const idle = await openSocket(`/live/conversations/${id}`, a);
    const awake = await openSocket(`/live/conversations/${id}`, b);
    // Twenty-one minutes pass: Alice's session saw nothing in that time, Bob's page kept his alive.
    const ago = Date.now() - SESSION_IDLE_MS - 60_000;
    await env.DB.prepare("UPDATE sessions SET last_seen_at = ? WHERE user_id = ?").bind(ago, a).run();
    await runInDurableObject(room, (_, state: DurableObjectState) => {
      for (const socket of state.getWebSockets()) socket.serializeAttachment({ ...socket.deserializeAttachment(), seenAt: ago });
    });
    must(await room.send(id, b, { body: "are you there?", client_id: clientId() }));
    expect(await until(() => idle.closed[0])).toBe(SESSION_ENDED_CLOSE);
    expect(idle.events.filter((e) => e.type === "message")).toEqual([]);
    // Bob's session is alive in D1 (his page requests slide it): his socket hears it.
    expect(await until(() => awake.events.find((e) => e.type === "message"))).toMatchObject({ message: { body: "are you there?" } });
  });
});

describe("the conversation's Durable Object", () => {
  it("stores a repeated send (same client id) once and answers the stored message", async () => {
    const { a, id, room } = await pair();
    const cid = clientId();
    const first = must(await room.send(id, a, { body: "hello", client_id: cid }));
    const again = await room.send(id, a, { body: "hello", client_id: cid });
    expect(first.created).toBe(true);
    expect(again).toEqual({ message: first.message, created: false });
    expect((await history(id)).messages.map((m) => m.body)).toEqual(["hello"]);
  });

  it("relays messages to open pages in the order they were stored, sent at once", async () => {
    const { a, b, id, room } = await pair();
    const bob = await openSocket(`/live/conversations/${id}`, b);
    expect(bob.status).toBe(101);
    const sent = await Promise.all(
      Array.from({ length: 20 }, (_, i) => room.send(id, i % 2 ? a : b, { body: `m${i}`, client_id: clientId() })),
    );
    const relayed = await until(() => {
      const ids = bob.events.filter((e) => e.type === "message").map((e) => (e.type === "message" ? e.message.id : 0));
      return ids.length === 20 ? ids : undefined;
    });
    expect(relayed).toEqual([...relayed].sort((x, y) => x - y));
    expect(new Set(relayed)).toEqual(new Set(sent.map((s) => must(s).message.id)));
    const stored = (await history(id, { limit: 100 })).messages.map((m) => m.id);
    expect(stored).toEqual(relayed);
    bob.socket?.close(1000);
  });

  it("sends over a socket: acknowledged only once stored, empty and too long refused", async () => {
    const { a, id } = await pair();
    const alice = await openSocket(`/live/conversations/${id}`, a);
    const cid = clientId();
    alice.socket?.send(JSON.stringify({ type: "send", body: "over the socket", client_id: cid }));
    const ack = await until(() => alice.events.find((e) => e.type === "ack"));
    const stored = (await history(id)).messages;
    expect(ack.type === "ack" && stored.map((m) => m.id)).toEqual([ack.type === "ack" ? ack.message.id : -1]);
    alice.socket?.send(JSON.stringify({ type: "send", body: "   ", client_id: clientId() }));
    alice.socket?.send(JSON.stringify({ type: "send", body: "x".repeat(MESSAGE_MAX + 1), client_id: clientId() }));
    const errors = await until(() => {
      const found = alice.events.filter((e) => e.type === "error");
      return found.length === 2 ? found : undefined;
    });
    expect(errors.map((e) => e.type === "error" && e.error)).toEqual([
      "validation.inputEmpty",
      `validation.messageTooLong|max=${MESSAGE_MAX}`,
    ]);
    expect((await history(id)).messages).toHaveLength(1);
    alice.socket?.close(1000);
  });

  it("keeps history and hibernated sockets across eviction, and catches a reconnecting page up", async () => {
    const { a, b, id, room } = await pair();
    const bob = await openSocket(`/live/conversations/${id}`, b);
    const { message: before } = must(await room.send(id, a, { body: "before", client_id: clientId() }));
    await until(() => bob.events.some((e) => e.type === "message"));

    await evictDurableObject(room); // sockets hibernate; the object's memory is gone
    await conversationRoom(id).send(id, a, { body: "after hibernation", client_id: clientId() });
    await until(() => bob.events.filter((e) => e.type === "message").length === 2);

    await evictDurableObject(conversationRoom(id), { webSockets: "close" });
    await conversationRoom(id).send(id, a, { body: "while away", client_id: clientId() });
    // A page that reconnects asks for everything after the last message it has.
    const back = await openSocket(`/live/conversations/${id}`, b);
    back.socket?.send(JSON.stringify({ type: "sync", after: before.id }));
    const sync = await until(() => back.events.find((e) => e.type === "sync"));
    expect(sync.type === "sync" && sync.messages.map((m) => m.body)).toEqual(["after hibernation", "while away"]);
    expect((await history(id)).messages.map((m) => m.body)).toEqual(["before", "after hibernation", "while away"]);
    back.socket?.close(1000);
  });
});

describe("a message on its way", () => {
  // Every signed-in request finds its session in D1 (one statement, a second when it slides it);
  // nothing about the message itself may reach D1: the room answers membership and blocks itself.
  const isSessionLookup = (sql: string) => /\bFROM sessions s JOIN users\b|^UPDATE sessions SET last_seen_at/.test(sql);
  const isQueuedNotification = (sql: string) => /^INSERT INTO notifications \(|JOIN notifications n ON n\.user_id = j\.value/.test(sql);
  const onThePath = (statements: string[]) => statements.filter((sql) => !isSessionLookup(sql) && !isQueuedNotification(sql));

  it("costs no D1 statement through the API, the page or a socket", async () => {
    const { a, b, id, room } = await pair();
    const token = await createSession(a, Date.now());
    const socket = await openSocket(`/live/conversations/${id}`, b);
    // A room reads its facts once, at its first call. A message finding its reader with no page open
    // (no inbox socket: none is opened here) is told to their notification centre by a queued job
    // (decision 0040): it runs in this isolate beside the path, so its statements are set apart below.
    must(await room.send(id, b, { body: "hello", client_id: clientId() }));
    await until(async () => (await listNotifications(a)).some((n) => n.kind === "message") || undefined);
    const { caller, settle } = testCaller();
    const viaApi = await d1Statements(async () => {
      const request = new Request(`https://app.test/api/conversations/${id}/messages`, {
        method: "POST",
        headers: { "Content-Type": "application/json", Authorization: `Bearer ${token}` },
        body: JSON.stringify({ body: "by the API", client_id: clientId() }),
      });
      expect((await handleApi({ ...caller, language: "en", request })).status).toBe(201);
      await settle();
    });
    const viaPage = await d1Statements(async () => {
      const form = { body: "by the page", client_id: clientId() };
      expect((await callRoute(message, { path: `/message?conversation=${id}`, token, form })).status).toBe(303);
    });
    const viaSocket = await d1Statements(async () => {
      for (let i = 0; i < 3; i++) socket.socket?.send(JSON.stringify({ type: "send", body: `by a socket ${i}`, client_id: clientId() }));
      await until(() => socket.events.filter((e) => e.type === "ack").length === 3 || undefined);
    });
    expect(onThePath(viaApi)).toEqual([]);
    expect(onThePath(viaPage)).toEqual([]);
    expect(onThePath(viaSocket)).toEqual([]);
    expect((await history(id)).messages.map((m) => m.body)).toEqual([
      "hello",
      "by the API",
      "by the page",
      "by a socket 0",
      "by a socket 1",
      "by a socket 2",
    ]);
    socket.socket?.close(1000);
  });

  it("is refused by the room from what it was told: a block, an unblock, a deletion", async () => {
    const { a, b, id, room } = await pair();
    const stranger = await newMember("Eve");
    expect(await room.send(id, stranger, { body: "let me in", client_id: clientId() })).toBe("not-member");
    await env.DB.prepare("INSERT INTO blocks (blocker_id, blocked_id, created_at) VALUES (?, ?, ?)").bind(a, b, Date.now()).run();
    // Written behind the room's back, a block is not seen until the room is told (which block() does).
    expect(await room.send(id, b, { body: "not told yet", client_id: clientId() })).not.toBeNull();
    await room.refresh(id);
    expect(await room.send(id, b, { body: "told", client_id: clientId() })).toBeNull();
    await evictDurableObject(room);
    expect(await room.send(id, b, { body: "after a restart", client_id: clientId() })).toBeNull();
    await env.DB.prepare("DELETE FROM blocks WHERE blocker_id = ?").bind(a).run();
    await room.refresh(id);
    expect(await room.send(id, b, { body: "unblocked", client_id: clientId() })).not.toBeNull();
  });
});

describe("a deleted member's rooms", () => {
  it("refuse new messages once told, the rooms past the first hundred through a queued job", async () => {
    const { a, b, id, room } = await pair();
    must(await room.send(id, b, { body: "before", client_id: clientId() }));
    // The account goes; this room is one a job tells (its conversation comes after the first hundred).
    await env.DB.prepare("UPDATE users SET deleted_at = ? WHERE id = ?").bind(Date.now(), a).run();
    expect(await room.send(id, b, { body: "not told yet", client_id: clientId() })).not.toBeNull();
    const job: Job = { type: "rooms-refresh", member: a, after: id - 1 };
    await consumeJobs(
      createMessageBatch<Job>("research-commons-jobs", [{ id: crypto.randomUUID(), timestamp: new Date(), attempts: 1, body: job }]),
    );
    expect(await room.send(id, b, { body: "told", client_id: clientId() })).toBeNull();
  });
});

describe("opening a socket", () => {
  it("is only for WebSocket upgrades, at the worker and at the object", async () => {
    const { id, room } = await pair();
    expect((await room.fetch("http://room/")).status).toBe(426);
    expect((await handleSocket(new Request(`https://app.test/live/conversations/${id}`))).status).toBe(426);
  });

  it("needs a session, membership of the conversation, and our own origin", async () => {
    const { a, id } = await pair();
    const stranger = await newMember("Eve");
    expect((await openSocket(`/live/conversations/${id}`, null)).status).toBe(401);
    expect((await openSocket(`/live/conversations/${id}`, stranger)).status).toBe(404);
    expect((await openSocket(`/live/conversations/${id}`, a, { Origin: "https://evil.example" })).status).toBe(403);
    expect((await openSocket(`/live/conversations/${id + 1000}`, a)).status).toBe(404);
    const ok = await openSocket(`/live/conversations/${id}`, a, { Origin: "https://app.test" });
    expect(ok.status).toBe(101);
    ok.socket?.close(1000);
  });

  it("ignores a member id the client tried to send itself", async () => {
    const { a, b, id } = await pair();
    const alice = await openSocket(`/live/conversations/${id}`, a, { "X-Member-Id": String(b) });
    alice.socket?.send(JSON.stringify({ type: "send", body: "who am I", client_id: clientId() }));
    const ack = await until(() => alice.events.find((e) => e.type === "ack"));
    expect(ack.type === "ack" && ack.message.sender_id).toBe(a);
    alice.socket?.close(1000);
  });
});

describe("unread counts", () => {
  it("count the other member's messages after the read position, and reach the inbox live", async () => {
    const { a, b, id, room } = await pair();
    const inbox = await openSocket("/live/inbox", b);
    for (const body of ["one", "two", "three"]) await room.send(id, a, { body, client_id: clientId() });
    expect(await unreadTotal(b)).toBe(3);
    expect(await unreadTotal(a)).toBe(0);
    expect((await listConversations(b)).find((c) => c.id === id)).toMatchObject({
      unread_count: 3,
      last_message: { body: "three" },
    });
    await until(() => inbox.events.some((e) => e.type === "unread" && e.total === 3));

    await room.read(id, b);
    expect(await unreadTotal(b)).toBe(0);
    await until(() => inbox.events.some((e) => e.type === "unread" && e.total === 0));

    // A reply marks the replier's side read; a read position past the last message is capped.
    const last = must(await room.send(id, a, { body: "four", client_id: clientId() }));
    await room.read(id, b, last.message.id + 999);
    await room.send(id, a, { body: "five", client_id: clientId() });
    expect(await unreadTotal(b)).toBe(1);
    inbox.socket?.close(1000);
  });

  it("reach a page that connects after they changed, at once", async () => {
    const { a, b, id, room } = await pair();
    await room.send(id, a, { body: "sent before Bob's page was open", client_id: clientId() });
    const late = await openSocket("/live/inbox", b);
    await until(() => late.events.some((e) => e.type === "unread" && e.total === 1));
    late.socket?.close(1000);
  });

  it("one pair has one conversation, and nobody talks to themselves", async () => {
    const a = await newMember();
    const b = await newMember();
    const first = must(await startConversation(a, b, 1));
    expect(first.created).toBe(true);
    expect(await startConversation(b, a, 2)).toEqual({ id: first.id, created: false });
    await expect(startConversation(a, a, 3)).rejects.toMatchObject({ status: 400, field: "userId" });
    await expect(startConversation(a, 987_654_321, 4)).rejects.toMatchObject({ status: 404, key: "member.notFound" });
  });
});
