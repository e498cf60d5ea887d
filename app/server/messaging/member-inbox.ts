import { DurableObject } from "cloudflare:workers";
import { unreadTotal } from "./conversations";
import { closeBack, type LiveEvent, MEMBER_HEADER, memberInbox } from "./live";

/**
 * One member's inbox: every open page of theirs holds a socket here (Hibernation API), so the
 * sidebar's unread badge changes live when a message arrives in any conversation.
 */
export class MemberInbox extends DurableObject<Env> {
  private queue: Promise<unknown> = Promise.resolve();

  async fetch(request: Request): Promise<Response> {
    if (request.headers.get("Upgrade") !== "websocket") return new Response("Expected a WebSocket upgrade", { status: 426 });
    if (!Number(request.headers.get(MEMBER_HEADER))) return new Response("No member", { status: 400 });
    const { 0: client, 1: server } = new WebSocketPair();
    this.ctx.acceptWebSocket(server);
    return new Response(null, { status: 101, webSocket: client });
  }

  /**
   * Reads the member's unread total and sends it to their open pages. Refreshes run one after
   * another, so the last one sent reflects every change that asked for it (no stale count wins).
   */
  refresh(userId: number) {
    const run = this.queue.then(async () => {
      const event: LiveEvent = { type: "unread", total: await unreadTotal(this.env.DB, userId) };
      const text = JSON.stringify(event);
      for (const socket of this.ctx.getWebSockets()) socket.send(text);
    });
    this.queue = run.catch(() => undefined);
    return run;
  }

  async webSocketClose(socket: WebSocket, code: number) {
    closeBack(socket, code);
  }
}

/** Tells the member's open pages their new unread total. */
export async function pushUnread(env: Env, userId: number) {
  await memberInbox(env, userId).refresh(userId);
}
