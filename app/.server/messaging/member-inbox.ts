import { DurableObject } from "cloudflare:workers";
import { unreadNotifications } from "~/.server/notifications/unread";
import { unreadTotal } from "./conversations";
import { closeBack, closeEnded, MEMBER_HEADER, memberInbox, memberTag, SESSION_HEADER, sendToAll, sessionTag } from "./live";

/**
 * One member's inbox: every open page of theirs holds a socket here (Hibernation API), so the
 * sidebar's unread badge changes live when a message arrives in any conversation, and the header's
 * bell when a notification does.
 */
export class MemberInbox extends DurableObject<Env> {
  private queue: Promise<unknown> = Promise.resolve();

  async fetch(request: Request): Promise<Response> {
    if (request.headers.get("Upgrade") !== "websocket") return new Response("Expected a WebSocket upgrade", { status: 426 });
    const memberId = Number(request.headers.get(MEMBER_HEADER));
    const session = request.headers.get(SESSION_HEADER);
    if (!memberId || !session) return new Response("No member or session", { status: 400 });
    const { 0: client, 1: server } = new WebSocketPair();
    this.ctx.acceptWebSocket(server, [memberTag(memberId), sessionTag(session)]);
    // A page that (re)connects gets the current total at once: pushes made while it had no socket
    // (still loading, or a dropped connection) are not lost on it.
    this.ctx.waitUntil(this.refresh(memberId));
    return new Response(null, { status: 101, webSocket: client });
  }

  /**
   * Reads the member's unread total and sends it to their open pages. Refreshes run one after
   * another, so the last one sent reflects every change that asked for it (no stale count wins).
   */
  refresh(userId: number) {
    const run = this.queue.then(async () => {
      const [total, notifications] = await Promise.all([unreadTotal(this.env.DB, userId), unreadNotifications(this.env.DB, userId)]);
      sendToAll(this.ctx.getWebSockets(), { type: "unread", total, notifications });
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
export async function pushUnread(env: Env, userId: number) {
  await memberInbox(env, userId).refresh(userId);
}
