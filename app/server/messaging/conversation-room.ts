import { DurableObject } from "cloudflare:workers";

/**
 * One conversation's live room: members' open pages hold a WebSocket here (Hibernation API, so an
 * idle room costs nothing) and each message is passed to the other sockets. The worker authenticates
 * a member before forwarding the upgrade; the messaging issue adds storage and membership.
 */
export class ConversationRoom extends DurableObject<Env> {
  async fetch(request: Request): Promise<Response> {
    if (request.headers.get("Upgrade") !== "websocket") {
      return new Response("Expected a WebSocket upgrade", { status: 426 });
    }
    const { 0: client, 1: server } = new WebSocketPair();
    this.ctx.acceptWebSocket(server);
    return new Response(null, { status: 101, webSocket: client });
  }

  async webSocketMessage(sender: WebSocket, message: string | ArrayBuffer) {
    for (const socket of this.ctx.getWebSockets()) {
      if (socket !== sender) socket.send(message);
    }
  }

  async webSocketClose(socket: WebSocket, code: number) {
    // A client that closes without a code arrives as 1005, which may not be sent back.
    socket.close(code === 1005 ? 1000 : code, "closed");
  }
}
