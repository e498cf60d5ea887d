import { DurableObject } from "cloudflare:workers";
import { findSessionByHash } from "~/.server/accounts/sessions";
import { NOT_AVAILABLE } from "~/.server/social/blocks";
import { type MessageInput, messageSchema } from "~/lib/schemas/message";
import type { LiveEvent, Message } from "~/lib/shapes";
import { markRead, membersOf, messagesPage, storeMessage } from "./conversations";
import {
  CONVERSATION_HEADER,
  closeBack,
  closeEnded,
  MEMBER_HEADER,
  memberTag,
  SESSION_HEADER,
  sendEvent,
  sendToAll,
  sessionTag,
} from "./live";
import { pushUnread } from "./member-inbox";

interface SocketInfo {
  memberId: number;
  conversationId: number;
  session: string;
}

/**
 * One conversation's live room. Every message a member sends (socket, form or API) passes through
 * here: stored in D1 before it is acknowledged, once per client id, then relayed to the open pages
 * (Hibernation API sockets, so an idle room costs nothing) in the order it was stored. The worker
 * authenticates the member and checks they belong to the conversation before it forwards a socket.
 */
export class ConversationRoom extends DurableObject<Env> {
  private queue: Promise<unknown> = Promise.resolve();
  /** The conversation's two members never change, so they are read once per object lifetime. */
  private members: number[] | null = null;

  async fetch(request: Request): Promise<Response> {
    if (request.headers.get("Upgrade") !== "websocket") return new Response("Expected a WebSocket upgrade", { status: 426 });
    const info: SocketInfo = {
      memberId: Number(request.headers.get(MEMBER_HEADER)),
      conversationId: Number(request.headers.get(CONVERSATION_HEADER)),
      session: request.headers.get(SESSION_HEADER) ?? "",
    };
    if (!info.memberId || !info.conversationId || !info.session) return new Response("No member, conversation or session", { status: 400 });
    const { 0: client, 1: server } = new WebSocketPair();
    this.ctx.acceptWebSocket(server, [memberTag(info.memberId), sessionTag(info.session)]);
    server.serializeAttachment(info);
    return new Response(null, { status: 101, webSocket: client });
  }

  /**
   * Stores and relays a message; sends are handled one after another, so relays follow store order.
   * `created` is false when this client id was already stored (nothing new is relayed then); null when
   * a block between the members refused it.
   */
  send(conversationId: number, senderId: number, input: MessageInput): Promise<{ message: Message; created: boolean } | null> {
    const run = this.queue.then(() => this.store(conversationId, senderId, input));
    this.queue = run.catch(() => undefined);
    return run;
  }

  /** Marks the conversation read for a member, and updates their badge on every open page. */
  async read(conversationId: number, userId: number, upTo?: number) {
    await markRead(this.env.DB, conversationId, userId, upTo);
    await pushUnread(this.env, userId);
  }

  private async store(conversationId: number, senderId: number, input: MessageInput) {
    const stored = await storeMessage(this.env.DB, conversationId, senderId, input.body, input.client_id, Date.now());
    if (!stored) return null;
    const { message, created } = stored;
    if (created) {
      sendToAll(this.ctx.getWebSockets(), { type: "message", message });
      this.members ??= await membersOf(this.env.DB, conversationId);
      // The badge update need not hold up the next message.
      const others = this.members.filter((id) => id !== senderId);
      this.ctx.waitUntil(Promise.all(others.map((id) => pushUnread(this.env, id))));
    }
    return { message, created };
  }

  /** Closes the sockets with this tag (an ended session's, or all of a member's). */
  closeSockets(tag: string) {
    closeEnded(this.ctx.getWebSockets(tag));
  }

  async webSocketMessage(socket: WebSocket, raw: string | ArrayBuffer) {
    const { memberId, conversationId, session } = socket.deserializeAttachment() as SocketInfo;
    // The session that opened the socket must still be alive for anything it asks (and it slides
    // the session like a page request would).
    const found = await findSessionByHash(this.env.DB, session, Date.now());
    if (found.status !== "valid" || found.user.id !== memberId) return closeEnded([socket]);
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
      reply(sent ? { type: "ack", message: sent.message } : { type: "error", client_id: parsed.data.client_id, error: NOT_AVAILABLE });
    } else if (event.type === "sync") {
      const page = await messagesPage(this.env.DB, conversationId, { after: Number(event.after) || 0, limit: 100 });
      reply({ type: "sync", ...page });
    } else if (event.type === "read") {
      await this.read(conversationId, memberId, Number(event.upTo) || undefined);
    }
  }

  async webSocketClose(socket: WebSocket, code: number) {
    closeBack(socket, code);
  }
}
