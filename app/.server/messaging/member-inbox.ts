import { DurableObject } from "cloudflare:workers";
import { enqueue } from "~/.server/jobs/queue";
import { unreadNotifications } from "~/.server/notifications/unread";
import { memberConversationsToMove } from "./legacy-messages";
import {
  closeBack,
  closeEnded,
  conversationRoom,
  liveSockets,
  MEMBER_HEADER,
  memberInbox,
  memberTag,
  SESSION_HEADER,
  sendToAll,
  sessionTag,
} from "./live";
import type { InboxEntry } from "./room-store";

const SCHEMA = `
  CREATE TABLE IF NOT EXISTS conversations (
    id INTEGER PRIMARY KEY,
    version INTEGER NOT NULL,
    unread INTEGER NOT NULL,
    last_id INTEGER,
    last_sender INTEGER,
    last_body TEXT,
    last_at INTEGER
  );
  CREATE TABLE IF NOT EXISTS facts (key TEXT PRIMARY KEY, value INTEGER NOT NULL);
`;

export interface InboxRow {
  id: number;
  unread: number;
  last_message: InboxEntry["last_message"];
}

/**
 * One member's inbox (docs/decisions/0028-messages-in-their-conversation.md): each conversation's
 * unread count and last message, as its room last told it, kept in this object's SQLite storage, so
 * the badge and the conversation list read one object instead of every conversation. Every open page
 * of the member's holds a socket here (Hibernation API), so the badge changes live when a message
 * arrives in any conversation, and the header's bell when a notification does.
 */
export class MemberInbox extends DurableObject<Env> {
  private queue: Promise<unknown> = Promise.resolve();
  private settling: Promise<void> | null = null;

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    ctx.storage.sql.exec(SCHEMA);
  }

  async fetch(request: Request): Promise<Response> {
    if (request.headers.get("Upgrade") !== "websocket") return new Response("Expected a WebSocket upgrade", { status: 426 });
    const memberId = Number(request.headers.get(MEMBER_HEADER));
    const session = request.headers.get(SESSION_HEADER);
    if (!memberId || !session) return new Response("No member or session", { status: 400 });
    const { 0: client, 1: server } = new WebSocketPair();
    this.ctx.acceptWebSocket(server, [memberTag(memberId), sessionTag(session)]);
    // The worker has just found the session alive (see liveSockets).
    server.serializeAttachment({ session, seenAt: Date.now() });
    // A page that (re)connects gets the current total at once: pushes made while it had no socket
    // (still loading, or a dropped connection) are not lost on it.
    this.ctx.waitUntil(this.refresh(memberId));
    return new Response(null, { status: 101, webSocket: client });
  }

  /**
   * A conversation's state from its room. Rooms send absolute figures with a version, so an update
   * that arrives late or twice never replaces a newer one.
   */
  async apply(userId: number, conversationId: number, entry: InboxEntry) {
    const last = entry.last_message;
    const before = this.ctx.storage.sql
      .exec<{ unread: number }>("SELECT unread FROM conversations WHERE id = ?", conversationId)
      .toArray()[0];
    const cursor = this.ctx.storage.sql.exec(
      `INSERT INTO conversations (id, version, unread, last_id, last_sender, last_body, last_at) VALUES (?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT (id) DO UPDATE SET version = excluded.version, unread = excluded.unread, last_id = excluded.last_id,
         last_sender = excluded.last_sender, last_body = excluded.last_body, last_at = excluded.last_at
       WHERE excluded.version > version`,
      conversationId,
      entry.version,
      entry.unread,
      last?.id ?? null,
      last?.sender_id ?? null,
      last?.body ?? null,
      last?.created_at ?? null,
    );
    // The open pages' badge follows without holding up the room (a refresh reads D1 for the bell).
    if (cursor.rowsWritten > 0) this.ctx.waitUntil(this.refresh(userId));
    // A message in a conversation with nothing unread, while no page of the member's is open: the
    // notification centre (and the channel they chose) hears of it once, until they read it
    // (decision 0040), through the jobs queue, so the message path makes no D1 trip for it.
    const fresh = cursor.rowsWritten > 0 && (before?.unread ?? 0) === 0 && entry.unread > 0;
    if (fresh && last && last.sender_id !== userId && this.ctx.getWebSockets().length === 0) {
      const job = { type: "message-notification", userId, conversationId, messageId: last.id, senderId: last.sender_id } as const;
      this.ctx.waitUntil(enqueue([job]).catch((error) => console.error("message notification", error)));
    }
  }

  /** Every conversation the inbox knows, with its unread count and last message. */
  async entries(userId: number): Promise<InboxRow[]> {
    await this.settle(userId);
    return this.ctx.storage.sql
      .exec<{ id: number; unread: number; last_id: number | null; last_sender: number; last_body: string; last_at: number }>(
        "SELECT id, unread, last_id, last_sender, last_body, last_at FROM conversations",
      )
      .toArray()
      .map((r) => ({
        id: r.id,
        unread: r.unread,
        last_message: r.last_id === null ? null : { id: r.last_id, sender_id: r.last_sender, body: r.last_body, created_at: r.last_at },
      }));
  }

  /** The sum of the member's unread counts (the sidebar's badge). */
  async total(userId: number): Promise<number> {
    await this.settle(userId);
    return this.sum();
  }

  private sum() {
    return this.ctx.storage.sql.exec<{ n: number }>("SELECT coalesce(sum(unread), 0) AS n FROM conversations").one().n;
  }

  /**
   * On first use, has the rooms of the member's conversations that still have messages in D1 move
   * them (each room then tells this inbox). Later calls skip this at the cost of one local read.
   */
  private settle(userId: number): Promise<void> {
    const done = this.ctx.storage.sql.exec<{ n: number }>("SELECT count(*) AS n FROM facts WHERE key = 'settled'").one().n > 0;
    if (done) return Promise.resolve();
    this.settling ??= (async () => {
      const waiting = await memberConversationsToMove(userId);
      await Promise.all(waiting.map((id) => conversationRoom(id).settle(id)));
      this.ctx.storage.sql.exec("INSERT OR IGNORE INTO facts (key, value) VALUES ('settled', 1)");
    })().finally(() => {
      this.settling = null;
    });
    return this.settling;
  }

  /** Forgets everything (the member deleted their account). */
  async clear() {
    await this.ctx.storage.deleteAll();
    this.ctx.storage.sql.exec(SCHEMA);
  }

  /**
   * Sends the member's unread totals to their open pages. Refreshes run one after another, so the
   * last one sent reflects every change that asked for it (no stale count wins).
   */
  refresh(userId: number) {
    const run = this.queue.then(async () => {
      if (this.ctx.getWebSockets().length === 0) return;
      const notifications = await unreadNotifications(userId);
      sendToAll(await liveSockets(this.ctx.getWebSockets(), Date.now()), { type: "unread", total: this.sum(), notifications });
    });
    this.queue = run.catch(() => undefined);
    return run;
  }

  /** Closes the sockets with this tag (an ended session's, or all of the member's). */
  closeSockets(tag: string) {
    closeEnded(this.ctx.getWebSockets(tag));
  }

  async webSocketClose(socket: WebSocket, code: number) {
    closeBack(socket, code);
  }
}

/** Tells the member's open pages their new unread totals (messages and notifications). */
export async function pushUnread(userId: number) {
  await memberInbox(userId).refresh(userId);
}
