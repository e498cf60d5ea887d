import { apiCaller } from "~/.server/web/auth/caller";
import { failedRequest } from "~/.server/web/observability/failures";
import { API_BASE, handleApi } from "./router";

/** Whether the worker entry hands this path to the API (before React Router and its page middleware). */
export const isApiPath = (pathname: string) => pathname === API_BASE || pathname.startsWith(`${API_BASE}/`);

/**
 * CORS, decided (docs/decisions/0006): no other site's page may call the API. Programs call it with
 * a token and send no Origin; this site's own pages send their own. Any other Origin, preflight or
 * not, is refused by the worker entry before the body is read, in the envelope, so a tool or the
 * browser's console shows why (a page's script sees only a failed request: no Access-Control header).
 */
export const isOtherOrigin = (request: Request) => {
  const origin = request.headers.get("Origin");
  return origin !== null && origin !== new URL(request.url).origin;
};

/**
 * /api/*: authenticated by header, so none of the pages' middleware (language instance, flash,
 * cookie session) runs. A handler that throws answers 500 in the API's envelope with the request id.
 */
export async function serveApi(request: Request, ctx: ExecutionContext | undefined, requestId: string): Promise<Response> {
  try {
    return await handleApi({ ...apiCaller(request, ctx), request });
  } catch (error) {
    return failedRequest(request, requestId, error);
  }
}
