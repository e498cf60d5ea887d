import { apiCaller } from "~/.server/auth/caller";
import { failedRequest } from "~/.server/observability/failures";
import { API_BASE, handleApi } from "./router";

/** Whether the worker entry hands this path to the API (before React Router and its page middleware). */
export const isApiPath = (pathname: string) => pathname === API_BASE || pathname.startsWith(`${API_BASE}/`);

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
