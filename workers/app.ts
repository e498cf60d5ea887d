import { createRequestHandler, RouterContextProvider } from "react-router";
import { orcidOrigin } from "~/.server/accounts/orcid";
import { servingProblems } from "~/.server/config/config";
import { runScheduled } from "~/.server/cron/scheduled";
import { withDbSession } from "~/.server/db-session";
import { boundedBody } from "~/.server/http/body";
import { avatarAt, isAvatarPath } from "~/.server/members/avatar";
import { requestContext } from "~/.server/web/context";
import { fromEdge } from "~/.server/web/edge-cache";
import { avatarAnswer } from "~/.server/web/files/member-files";
import { receiveClientError } from "~/.server/web/observability/client-errors";
import { errorAnswer } from "~/.server/web/observability/error-answer";
import { failedRequest } from "~/.server/web/observability/failures";
import { createNonce, withSecurityHeaders } from "~/.server/web/security/headers";
import { isCrossSiteWrite } from "~/.server/web/security/same-origin";
import { handleSocket, isSocketPath } from "~/.server/web/sockets";
import { unavailable } from "~/.server/web/unavailable";
import { isApiPath, isOtherOrigin, serveApi } from "~/api/serve";
import { CLIENT_ERROR_PATH } from "~/lib/client-errors";
import { consumeQueue } from "./queues";

export { ConversationRoom } from "~/.server/messaging/conversation-room";
export { MemberInbox } from "~/.server/messaging/member-inbox";

// Given a function, React Router derives its routes and static handler again on every request (so
// the dev server picks up edits); a built worker's routes never change, so it derives them once: about
// a tenth of a page's CPU here (issue 29).
type RequestHandler = ReturnType<typeof createRequestHandler>;
const loadBuild = () => import("virtual:react-router/server-build");
let built: RequestHandler | undefined;
const handleRequest: RequestHandler = import.meta.env.DEV
  ? createRequestHandler(loadBuild, import.meta.env.MODE)
  : async (request, context) => {
      built ??= createRequestHandler(await loadBuild(), import.meta.env.MODE);
      return built(request, context);
    };

async function serve(incoming: Request, env: Env, ctx: ExecutionContext, nonce: string, requestId: string): Promise<Response> {
  // Nothing half-works: a wrong configuration answers 503 everywhere, and the log says why.
  const problems = servingProblems(incoming);
  if (problems.length > 0) return unavailable(incoming, requestId, problems);
  const api = isApiPath(new URL(incoming.url).pathname);
  if (api && isOtherOrigin(incoming)) return errorAnswer(incoming, 403, "CrossOrigin", requestId);
  if (!api && isCrossSiteWrite(incoming)) return new Response("Cross-site request refused", { status: 403 });
  // Every form and JSON body is bounded while it arrives (files stream under their own limit).
  const request = await boundedBody(incoming);
  if (!request) return errorAnswer(incoming, 413, "TooLarge", requestId);
  const { pathname } = new URL(request.url);
  // A trivial route, the baseline the benchmark compares rendered pages with.
  if (pathname === "/healthz") return new Response("ok", { headers: { "Cache-Control": "no-store" } });
  if (pathname === CLIENT_ERROR_PATH) return receiveClientError(request, env.CLIENT_ERROR_LIMITER, requestId);
  if (isAvatarPath(pathname) && request.method === "GET") return avatarAnswer(await avatarAt(pathname));
  // Live sockets go straight to their Durable Object (a 101 answer carries no security headers).
  if (isSocketPath(pathname)) return handleSocket(request);
  if (isApiPath(pathname)) return withDbSession(request, () => serveApi(request, ctx, requestId));
  const context = new RouterContextProvider();
  context.set(requestContext, { nonce, requestId, ctx });
  // An open record's page may come from this data centre's cache (decision 0049).
  return withDbSession(request, () => fromEdge(request, nonce, () => handleRequest(request, context)));
}

export default {
  async fetch(request, env, ctx) {
    const started = performance.now();
    const nonce = createNonce();
    const requestId = crypto.randomUUID();
    let response: Response;
    try {
      response = await serve(request, env, ctx, nonce, requestId);
    } catch (error) {
      // React Router answers its own errors (entry.server handleError); this catches the rest.
      response = failedRequest(request, requestId, error);
    }
    if (response.status === 101) return response;
    const answer = withSecurityHeaders(response, nonce, orcidOrigin());
    answer.headers.set("X-Request-Id", requestId);
    answer.headers.append("Server-Timing", `total;dur=${(performance.now() - started).toFixed(1)}`);
    return answer;
  },

  // Awaited rather than handed to waitUntil: queuing the work is the whole job.
  async scheduled(controller) {
    await runScheduled(controller);
  },

  async queue(batch) {
    await consumeQueue(batch);
  },
} satisfies ExportedHandler<Env>;
