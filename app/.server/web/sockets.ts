import { currentSession } from "~/.server/accounts/accounts";
import { sessionHash } from "~/.server/accounts/sessions";
import { conversationFor } from "~/.server/messaging/conversations";
import { CONVERSATION_HEADER, conversationRoom, MEMBER_HEADER, memberInbox, SESSION_HEADER } from "~/.server/messaging/live";
import { tokenFromCookie, tokenFromHeader } from "~/.server/web/auth/cookies";

// The live sockets: /live/conversations/{id} (one conversation's messages) and /live/inbox (the
// member's unread total). The worker authenticates the session and checks membership here, then
// forwards the upgrade to the Durable Object with the member's id.
const CONVERSATION_PATH = /^\/live\/conversations\/(\d+)$/;
const INBOX_PATH = "/live/inbox";

export const isSocketPath = (pathname: string) => pathname === INBOX_PATH || CONVERSATION_PATH.test(pathname);

const refuse = (status: number) => new Response(null, { status });

export async function handleSocket(request: Request): Promise<Response> {
  const url = new URL(request.url);
  if (request.headers.get("Upgrade") !== "websocket") return refuse(426);
  // Browsers send cookies with cross-site socket requests too: only our own pages may open one.
  const origin = request.headers.get("Origin");
  if (origin && origin !== url.origin) return refuse(403);
  const token = tokenFromCookie(request) ?? tokenFromHeader(request);
  const found = await currentSession(token, Date.now());
  if (found.status !== "valid" || !token) return refuse(401);
  const who = { [MEMBER_HEADER]: String(found.user.id), [SESSION_HEADER]: await sessionHash(token) };
  if (url.pathname === INBOX_PATH) {
    return memberInbox(found.user.id).fetch(new Request(request, { headers: withHeaders(request, who) }));
  }
  const conversationId = Number(CONVERSATION_PATH.exec(url.pathname)?.[1]);
  // Anyone who is not a member gets the same answer as for a conversation that does not exist.
  if (!(await conversationFor(conversationId, found.user.id))) return refuse(404);
  const headers = withHeaders(request, { ...who, [CONVERSATION_HEADER]: String(conversationId) });
  return conversationRoom(conversationId).fetch(new Request(request, { headers }));
}

function withHeaders(request: Request, extra: Record<string, string>) {
  const headers = new Headers(request.headers);
  // Only the worker says who the member is; whatever the client sent under these names is dropped.
  for (const name of [MEMBER_HEADER, CONVERSATION_HEADER, SESSION_HEADER]) headers.delete(name);
  for (const [name, value] of Object.entries(extra)) headers.set(name, value);
  return headers;
}
