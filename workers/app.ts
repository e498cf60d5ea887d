import { createRequestHandler, RouterContextProvider } from "react-router";
import { requestContext } from "~/server/context";
import { runScheduled } from "~/server/cron/scheduled";
import { withDbSession } from "~/server/db-session";
import { handleSocket, isSocketPath } from "~/server/messaging/sockets";
import { createNonce, withSecurityHeaders } from "~/server/security/headers";
import { isCrossSiteWrite } from "~/server/security/same-origin";

export { ConversationRoom } from "~/server/messaging/conversation-room";
export { MemberInbox } from "~/server/messaging/member-inbox";

const handleRequest = createRequestHandler(() => import("virtual:react-router/server-build"), import.meta.env.MODE);

export default {
  async fetch(request, env, ctx) {
    const nonce = createNonce();
    if (isCrossSiteWrite(request)) {
      return withSecurityHeaders(new Response("Cross-site request refused", { status: 403 }), nonce);
    }
    // A trivial route, the baseline the benchmark compares rendered pages with.
    if (new URL(request.url).pathname === "/healthz") {
      return withSecurityHeaders(new Response("ok", { headers: { "Cache-Control": "no-store" } }), nonce);
    }
    // Live sockets go straight to their Durable Object (a 101 answer carries no security headers).
    if (isSocketPath(new URL(request.url).pathname)) return handleSocket(request, env);
    const context = new RouterContextProvider();
    context.set(requestContext, { nonce, ctx });
    return withSecurityHeaders(await withDbSession(request, () => handleRequest(request, context)), nonce);
  },

  // Awaited rather than handed to waitUntil: the run is the whole job, and its end is its answer.
  async scheduled(controller, env) {
    await runScheduled(controller, env.DB);
  },
} satisfies ExportedHandler<Env>;
