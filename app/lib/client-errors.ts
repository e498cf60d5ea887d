// The frontend error log (spec section 8: "Frontend errors are collected in an error log in
// production"). Deployed builds send each error with navigator.sendBeacon to CLIENT_ERROR_PATH;
// local builds print it to the console. The server scrubs and bounds what it receives.

export const CLIENT_ERROR_PATH = "/errors/client";
export const CLIENT_ERROR_MAX_BYTES = 8 * 1024;
const MAX_REPORTS_PER_PAGE = 10;

export type ClientErrorKind = "error" | "rejection" | "boundary";

let sent = 0;

export function reportClientError(kind: ClientErrorKind, error: unknown): void {
  if (__LOCAL_BUILD__) {
    console.error(`[${kind}]`, error);
    return;
  }
  if (sent >= MAX_REPORTS_PER_PAGE || typeof navigator.sendBeacon !== "function") return;
  sent += 1;
  const e = error instanceof Error ? error : { name: "NonError", message: String(error), stack: undefined };
  const body = JSON.stringify({
    kind,
    name: String(e.name).slice(0, 100),
    message: String(e.message).slice(0, 1000),
    stack: e.stack?.slice(0, 4000),
    page: location.pathname.slice(0, 500),
  });
  navigator.sendBeacon(CLIENT_ERROR_PATH, body);
}

/** Uncaught errors and unhandled rejections anywhere on the page. */
export function listenForClientErrors(): void {
  window.addEventListener("error", (event) => reportClientError("error", event.error ?? event.message));
  window.addEventListener("unhandledrejection", (event) => reportClientError("rejection", event.reason));
}
