import type { ConfigProblem } from "~/.server/config/config";
import { logEvent } from "~/.server/observability/log";
import { errorAnswer } from "~/.server/web/observability/error-answer";

/**
 * The answer to every request while the configuration is wrong: 503 with a short translated page
 * (or the API envelope), and a log line that names each problem. Members never see the names.
 */
export function unavailable(request: Request, requestId: string, problems: ConfigProblem[]): Response {
  logEvent("error", "config.invalid", { request_id: requestId, problems });
  return errorAnswer(request, 503, "Unavailable", requestId, { "Retry-After": "300" });
}
