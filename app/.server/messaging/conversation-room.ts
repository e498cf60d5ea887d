import { DurableObject } from "cloudflare:workers";
import { findSessionByHash, SESSION_TOUCH_MS } from "~/.server/accounts/sessions";
import { NOT_AVAILABLE } from "~/.server/social/block-rules";
import { type MessageInput, messageSchema } from "~/lib/schemas/message";
import type { LiveEvent, Message } from "~/lib/shapes";
import { MESSAGE_PAGE_SIZE, roomFacts } from "./conversations";
import { moveLegacyMessages } from "./legacy-messages";
import {
  CONVERSATION_HEADER,
  closeBack,
  closeEnded,
  liveSockets,
  MEMBER_HEADER,
  memberInbox,
  memberTag,
  SESSION_HEADER,
  sawSession,
  sendEvent,
  sendToAll,
  sessionTag,
} from "./live";
import { RoomStore } from "./room-store";

interface SocketInfo {
  memberId: number;
  conversationId: number;
  session: string;
  /** When the socket last knew its session alive (see liveSockets). */
  seenAt?: number;
}

/**
 * When the object checks, after a change, that both inboxes have it (the runtime retries a failing
 * alarm with back-off). The alarm is armed in the same write as the change, so even a crash between
 * storing and telling the inboxes leaves them behind for seconds at most.
 */
const INBOX_CHECK_MS = 5000;
const INBOX_RETRY_MS = 60_000;

/**
 * One conversation: its messages and read positions live in this object's own SQLite storage
 * (docs/decisions/0028-messages-in-their-conversation.md), so conversations never wait on each other.
 * Every message a member sends (socket, form or API) is stored here before it is acknowledged, once
 * per client id, and relayed to the open pages (Hibernation API sockets, so an idle room costs
 * nothing) in the order it was stored. After each change the members' inboxes get the conversation's
 * new unread count and last message. The worker authenticates the member; the room itself answers
 * whether they belong to the conversation and whether it is open to them, from facts it read once and
 * is told again when a block, an unblock or an account deletion changes them (room-facts.ts), so a
 * message never waits on D1.
 */
export class ConversationRoom extends DurableObject<Env> {
  private readonly store: RoomStore;
  private queue: Promise<unknown> = Promise.resolve();
  /** Members whose inbox has not been told the latest change, and the push under way. */
  private untold = new Set<number>();
  private telling: Promise<void> | null = null;
  private checkArmed = false;

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    this.store = new RoomStore(ctx.storage.sql);
  }

  async fetch(request: Request): Promise<Response> {
    if (request.headers.get("Upgrade") !== "websocket") return new Response("Expected a WebSocket upgrade", { status: 426 });
    const info: SocketInfo = {
      memberId: Number(request.headers.get(MEMBER_HEADER)),
      conversationId: Number(request.headers.get(CONVERSATION_HEADER)),
      session: request.headers.get(SESSION_HEADER) ?? "",
      // The worker has just found the session alive.
      seenAt: Date.now(),
    };
    if (!info.memberId || !info.conversationId || !info.session) return new Response("No member, conversation or session", { status: 400 });
    const { 0: client, 1: server } = new WebSocketPair();
    this.ctx.acceptWebSocket(server, [memberTag(info.memberId), sessionTag(info.session)]);
    server.serializeAttachment(info);
    return new Response(null, { status: 101, webSocket: client });
  }

  /**
   * Calls run one after another in arrival order: relays follow store order, and no change
   * interleaves another. A call is answered once the inboxes have what it changed (so a sender's
   * next page load lists their message), but the next call does not wait for that.
   */
  private async serial<T>(conversationId: number, work: (members: number[]) => T | Promise<T>): Promise<T> {
    const run = this.queue.then(async () => work(await this.ready(conversationId)));
    this.queue = run.catch(() => undefined);
    const result = await run;
    if (this.untold.size > 0 || this.telling) await this.tellInboxes();
    return result;
  }

  /**
   * The two members and whether the conversation is closed (a block between them, a deleted account),
   * read from D1 once; the first use also moves the conversation's D1 messages here. No members: the
   * conversation does not exist (nothing is kept, so it is looked up again if it is made later).
   */
  private async ready(conversationId: number): Promise<number[]> {
    const low = this.store.fact("member_low");
    const high = this.store.fact("member_high");
    if (low !== null && high !== null && this.store.fact("moved") !== null && this.store.fact("closed") !== null) return [low, high];
    const facts = await roomFacts(conversationId);
    if (!facts) return [];
    await moveLegacyMessages(this.store, conversationId);
    this.store.setFact("conversation", conversationId);
    this.store.setFact("member_low", facts.members[0]);
    this.store.setFact("member_high", facts.members[1]);
    this.store.setFact("closed", facts.closed ? 1 : 0);
    this.store.setFact("moved", 1);
    this.changed(facts.members);
    return facts.members;
  }

  /** Reads again whether the conversation is closed: called after a block, an unblock or a deletion changed it. */
  refresh(conversationId: number) {
    return this.serial(conversationId, async (members) => {
      if (members.length === 0) return;
      const facts = await roomFacts(conversationId);
      this.store.setFact("closed", facts?.closed ? 1 : 0);
    });
  }

  /** Called in the same synchronous step as a change: arms the check that follows it. */
  private changed(userIds: number[]) {
    for (const id of userIds) this.untold.add(id);
    if (this.checkArmed) return;
    this.checkArmed = true;
    void this.ctx.storage.setAlarm(Date.now() + INBOX_CHECK_MS);
  }

  /**
   * Gives the inboxes of the members changed for the conversation as it is now. One push per
   * member is under way at a time and changes made meanwhile join the next, so a burst of messages
   * costs a few inbox writes, not one each; the promise settles once every change made before the
   * call has been told.
   */
  private tellInboxes(): Promise<void> {
    this.telling ??= (async () => {
      const conversationId = this.store.fact("conversation") ?? 0;
      while (this.untold.size > 0) {
        const ids = [...this.untold];
        this.untold.clear();
        await this.tell(conversationId, ids);
      }
    })()
      .catch((error) => console.error("updating an inbox (the alarm tries again)", error))
      .finally(() => {
        this.telling = null;
      });
    return this.telling;
  }

  /** Gives these members' inboxes the conversation as it is now. */
  private tell(conversationId: number, userIds: number[]) {
    return Promise.all(userIds.map((id) => memberInbox(id).apply(id, conversationId, this.store.entryFor(id))));
  }

  /**
   * Tells both inboxes the conversation as it is; entries carry a version, so a repeat changes
   * nothing. While an inbox cannot be reached it tries again every minute (the runtime's own alarm
   * retries give up after a few).
   */
  async alarm() {
    this.checkArmed = false;
    const conversationId = this.store.fact("conversation");
    if (conversationId === null) return;
    try {
      await this.tell(conversationId, await this.ready(conversationId));
    } catch (error) {
      console.error("telling the inboxes (again in a minute)", error);
      this.checkArmed = true;
      await this.ctx.storage.setAlarm(Date.now() + INBOX_RETRY_MS);
    }
  }

  /**
   * Stores and relays a message. `created` is false when this client id was already stored (nothing
   * new is relayed then); "not-member" when the sender is not in the conversation (or it does not
   * exist); null when a block between the members, a deleted account or a full conversation refused
   * it. Answered from the room's own facts, without a D1 trip.
   */
  send(
    conversationId: number,
    senderId: number,
    input: MessageInput,
  ): Promise<{ message: Message; created: boolean } | "not-member" | null> {
    return this.serial(conversationId, async (members) => {
      if (!members.includes(senderId)) return "not-member" as const;
      const stored = this.store.find(senderId, input.client_id);
      if (stored) return { message: stored, created: false };
      if (this.store.fact("closed")) return null;
      const message = this.store.insert(conversationId, senderId, input.client_id, input.body, Date.now());
      if (!message) return null;
      this.changed(members);
      sendToAll(await liveSockets(this.ctx.getWebSockets(), Date.now()), { type: "message", message });
      return { message, created: true };
    });
  }

  /** Marks the conversation read for a member (up to a message, default all), and updates their badge; anyone else changes nothing. */
  read(conversationId: number, userId: number, upTo?: number) {
    return this.serial(conversationId, (members) => {
      if (members.includes(userId) && this.store.markRead(userId, upTo)) this.changed([userId]);
    });
  }

  /** A page of history, oldest first: the newest messages, or those before / after an id. */
  history(conversationId: number, options: { before?: number; after?: number; limit?: number } = {}) {
    return this.serial(conversationId, () => this.store.page({ ...options, limit: options.limit ?? MESSAGE_PAGE_SIZE }));
  }

  /** One message, hidden or not (for moderation). */
  message(conversationId: number, messageId: number) {
    return this.serial(conversationId, () => this.store.message(messageId));
  }

  /** Hides (a time) or restores (null) a message; both inboxes follow. */
  setHidden(conversationId: number, messageId: number, at: number | null) {
    return this.serial(conversationId, (members) => {
      if (this.store.setHidden(messageId, at)) this.changed(members);
    });
  }

  /** A member's own messages after an id (their data export). */
  sentBy(conversationId: number, userId: number, after: number, limit: number) {
    return this.serial(conversationId, () => this.store.sentBy(userId, after, limit));
  }

  /** Moves whatever D1 still holds of the conversation's messages here (the move job; a member's first inbox read). */
  settle(conversationId: number) {
    return this.serial(conversationId, async (members) => {
      if (await moveLegacyMessages(this.store, conversationId)) this.changed(members);
    });
  }

  /** Closes the sockets with this tag (an ended session's, or all of a member's). */
  closeSockets(tag: string) {
    closeEnded(this.ctx.getWebSockets(tag));
  }

  async webSocketMessage(socket: WebSocket, raw: string | ArrayBuffer) {
    const { memberId, conversationId, session, seenAt } = socket.deserializeAttachment() as SocketInfo;
    // The session that opened the socket must still be alive for anything it asks, and activity here
    // slides it like a page request would. Both at the session's own granularity: D1 is asked when the
    // socket last knew the session alive a minute ago or more, not on every event. An ended session's
    // sockets are closed when it ends (session-sockets.ts); this catches one that was not reached.
    const now = Date.now();
    if (seenAt === undefined || now - seenAt >= SESSION_TOUCH_MS) {
      const found = await findSessionByHash(session, now);
      if (found.status !== "valid" || found.user.id !== memberId) return closeEnded([socket]);
      sawSession(socket, now);
    }
    let event: { type?: string; after?: unknown; upTo?: unknown; client_id?: unknown } & Record<string, unknown>;
    try {
      event = JSON.parse(typeof raw === "string" ? raw : new TextDecoder().decode(raw));
    } catch {
      return;
    }
    const reply = (answer: LiveEvent) => sendEvent(socket, answer);
    if (event.type === "send") {
      const parsed = messageSchema.safeParse(event);
      if (!parsed.success) {
        const client_id = typeof event.client_id === "string" ? event.client_id : undefined;
        return reply({ type: "error", client_id, error: parsed.error.issues[0]?.message ?? "notify.requestFailed" });
      }
      const sent = await this.send(conversationId, memberId, parsed.data);
      reply(
        sent && sent !== "not-member"
          ? { type: "ack", message: sent.message }
          : { type: "error", client_id: parsed.data.client_id, error: NOT_AVAILABLE },
      );
    } else if (event.type === "sync") {
      reply({ type: "sync", ...(await this.history(conversationId, { after: Number(event.after) || 0, limit: 100 })) });
    } else if (event.type === "read") {
      await this.read(conversationId, memberId, Number(event.upTo) || undefined);
    }
  }

  async webSocketClose(socket: WebSocket, code: number) {
    closeBack(socket, code);
  }
}
