import { createContext, data, type MiddlewareFunction, type RouterContextProvider } from "react-router";
import { currentSession } from "~/.server/accounts/accounts";
import type { SessionUser } from "~/.server/accounts/sessions";
import { flashRedirect } from "~/.server/web/shell/flash";
import { isPrefetch } from "~/.server/web/shell/prefetch";
import { pageUrl } from "~/.server/web/shell/shell-state";
import { clearTokenCookie, pointCookie, tokenFromCookie } from "./cookies";

export const sessionContext = createContext<{ user: SessionUser | null; expired: boolean; token: string | null }>({
  user: null,
  expired: false,
  token: null,
});

/**
 * Reads the session cookie once per request. A session that ended (idle or too old, logged out
 * elsewhere, ended by a password reset) counts as expired: its dead cookie is cleared, and the guard
 * says so with the spec's point=401.
 */
export const sessionMiddleware: MiddlewareFunction<Response> = async ({ request, context }, next) => {
  const token = tokenFromCookie(request);
  const found = await currentSession(token, Date.now());
  const ended = found.status === "expired" || (token !== null && found.status === "none");
  context.set(sessionContext, { user: found.status === "valid" ? found.user : null, expired: ended, token });
  const response = await next();
  // Not on a page fetched ahead: the member's own request must still find the dead cookie, to be told why.
  if (ended && !isPrefetch(request)) {
    const set = response.headers.getSetCookie();
    if (!set.some((c) => c.startsWith("token="))) response.headers.append("Set-Cookie", clearTokenCookie(request));
    // Whichever request meets the dead cookie first (a page's own background request, say), the next
    // page still says the session expired.
    if (!set.some((c) => c.startsWith("point="))) response.headers.append("Set-Cookie", pointCookie(request));
  }
  return response;
};

export function optionalUser(context: Readonly<RouterContextProvider>): SessionUser | null {
  return context.get(sessionContext).user;
}

/**
 * The guard: a visitor without a session goes to /login?redirect=<the full path and query>, told why
 * ('Please log in to view contents', or that the session expired, with the spec's point=401 cookie).
 */
export function requireUser(request: Request, context: Readonly<RouterContextProvider>): SessionUser {
  const { user, expired } = context.get(sessionContext);
  if (user) return user;
  // A page fetched ahead (decision 0046) is refused, not sent to the login: the browser drops a prefetch
  // that is not a success, so the member's own click gets the login with its notice and cookies.
  if (isPrefetch(request)) throw data(null, { status: 401, headers: { "Cache-Control": "no-store" } });
  const url = pageUrl(request);
  const headers = new Headers();
  if (expired) {
    headers.append("Set-Cookie", pointCookie(request));
    headers.append("Set-Cookie", clearTokenCookie(request));
  }
  const to = `/login?redirect=${encodeURIComponent(url.pathname + url.search)}`;
  throw flashRedirect(request, to, "info", expired ? "notify.sessionExpired" : "notify.loginRequired", { headers, status: 302 });
}

export const requireUserMiddleware: MiddlewareFunction<Response> = async ({ request, context }, next) => {
  requireUser(request, context);
  return next();
};
