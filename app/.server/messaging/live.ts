import { env } from "~/.server/bindings";
import { SESSION_IDLE_MS } from "~/lib/config";
import { SESSION_ENDED_CLOSE } from "~/lib/live-connection";
import type { LiveEvent } from "~/lib/shapes";

// What the worker tells a Durable Object about a socket it forwards (set only after authenticating),
// and how the rooms are named.
export const MEMBER_HEADER = "X-Member-Id";
export const CONVERSATION_HEADER = "X-Conversation-Id";
export const SESSION_HEADER = "X-Session-Hash";

// Sockets are tagged with their member and their session, so ending a session finds them.
export const memberTag = (memberId: number) => `m:${memberId}`;
export const sessionTag = (hash: string) => `s:${hash}`;
/** Closes sockets that belong to an ended session. */
export function closeEnded(sockets: WebSocket[]) {
  for (const socket of sockets) {
    try {
      socket.close(SESSION_ENDED_CLOSE, "session ended");
    } catch {
      // already closed
    }
  }
}

export const roomName = (conversationId: number) => `conversation:${conversationId}`;
export const inboxName = (userId: number) => `member:${userId}`;

export function conversationRoom(conversationId: number) {
  return env.CONVERSATIONS.get(env.CONVERSATIONS.idFromName(roomName(conversationId)));
}

export function memberInbox(userId: number) {
  return env.INBOXES.get(env.INBOXES.idFromName(inboxName(userId)));
}

/**
 * Answers a client's close. Reserved codes (1005 no code, 1006 dropped) may not be sent back, and a
 * socket that is already gone cannot be closed: both are normal ends here.
 */
export function closeBack(socket: WebSocket, code: number) {
  try {
    socket.close(code === 1005 || code === 1006 || code === 1015 ? 1000 : code, "closed");
  } catch {
    // already closed
  }
}

/** Sends an event to a socket; one that closed in the meantime is skipped (its page will catch up). */
export function sendEvent(socket: WebSocket, event: LiveEvent | string) {
  try {
    socket.send(typeof event === "string" ? event : JSON.stringify(event));
  } catch {
    // closed between being listed and being written to
  }
}

/** Sends one event to every open socket of an object. */
/** What a socket remembers of its session: its hash, and when the socket last knew it alive. */
interface SessionSeen {
  session: string;
  seenAt?: number;
}

/** Records that the socket's session was alive at `at` (it opened, or it just asked for something). */
export function sawSession(socket: WebSocket, at: number) {
  const info = socket.deserializeAttachment() as SessionSeen | null;
  if (info) socket.serializeAttachment({ ...info, seenAt: at });
}

/**
 * The sockets whose session is still alive, to relay to; the rest are closed as ended (issue 30: an
 * idle-expired socket kept receiving relays). A socket that knew its session alive within the idle
 * timeout answers without a database trip; only one quiet for longer asks D1, without sliding the
 * session (receiving is not activity), and learns the session's own last activity.
 */
export async function liveSockets(sockets: WebSocket[], now: number): Promise<WebSocket[]> {
  const live: WebSocket[] = [];
  for (const socket of sockets) {
    const info = socket.deserializeAttachment() as SessionSeen | null;
    // Opened before sockets remembered their session (an older deploy): relayed to, as before.
    if (!info?.session) {
      live.push(socket);
      continue;
    }
    if (info.seenAt !== undefined && now - info.seenAt <= SESSION_IDLE_MS) {
      live.push(socket);
      continue;
    }
    const row = await env.DB.prepare("SELECT last_seen_at, expires_at FROM sessions WHERE token_hash = ?")
      .bind(info.session)
      .first<{ last_seen_at: number; expires_at: number }>();
    if (row && now - row.last_seen_at <= SESSION_IDLE_MS && now < row.expires_at) {
      sawSession(socket, row.last_seen_at);
      live.push(socket);
    } else closeEnded([socket]);
  }
  return live;
}

export function sendToAll(sockets: WebSocket[], event: LiveEvent) {
  const text = JSON.stringify(event);
  for (const socket of sockets) sendEvent(socket, text);
}
