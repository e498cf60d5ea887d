import { apiCaller } from "~/.server/auth/caller";
import { errorAnswer } from "~/.server/observability/error-answer";
import { failedRequest } from "~/.server/observability/failures";
import { API_BASE, handleApi } from "./router";

/** Whether the worker entry hands this path to the API (before React Router and its page middleware). */
export const isApiPath = (pathname: string) => pathname === API_BASE || pathname.startsWith(`${API_BASE}/`);

/**
 * CORS, decided (docs/decisions/0006): no other site's page may call the API. Programs call it with
 * a token and send no Origin; this site's own pages send their own. Any other Origin, preflight or
 * not, is refused in the envelope, so an integrator sees why instead of a browser's opaque error.
 */
const isOtherOrigin = (request: Request) => {
  const origin = request.headers.get("Origin");
  return origin !== null && origin !== new URL(request.url).origin;
};

/**
 * /api/*: authenticated by header, so none of the pages' middleware (language instance, flash,
 * cookie session) runs. A handler that throws answers 500 in the API's envelope with the request id.
 */
export async function serveApi(request: Request, ctx: ExecutionContext | undefined, requestId: string): Promise<Response> {
  if (isOtherOrigin(request)) return errorAnswer(request, 403, "CrossOrigin", requestId);
  try {
    return await handleApi({ ...apiCaller(request, ctx), request });
  } catch (error) {
    return failedRequest(request, requestId, error);
  }
}
