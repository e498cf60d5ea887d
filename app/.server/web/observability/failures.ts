import { describeError, logEvent } from "~/.server/observability/log";
import { errorAnswer } from "~/.server/web/observability/error-answer";

/** The one log line for a request that failed on the server, with the id the member is shown. */
export function logFailure(request: Request, requestId: string, error: unknown): void {
  logEvent("error", "request.failed", {
    request_id: requestId,
    method: request.method,
    path: new URL(request.url).pathname, // never the query: it may hold search terms or codes
    ray: request.headers.get("cf-ray") ?? undefined,
    error: describeError(error),
  });
}

/** A request that threw past React Router (or an API handler): logged once, then 500 with its id. */
export function failedRequest(request: Request, requestId: string, error: unknown): Response {
  logFailure(request, requestId, error);
  return errorAnswer(request, 500, "Error", requestId);
}
