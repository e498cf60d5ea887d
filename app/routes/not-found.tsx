import { data } from "react-router";
import { optionalUser, requireUser } from "~/.server/web/auth/session";
import { pageUrl } from "~/.server/web/shell/shell-state";
import { safeRedirect } from "~/lib/safe-redirect";
import type { Route } from "./+types/not-found";

export { default, handle } from "./404";

// Addresses that are not pages: a file, an asset or an API call that is missing stays 404 for
// everyone (a script or an image answered with the login page helps nobody).
const NOT_A_PAGE = /^\/(?:api|files|assets|uploads|\.well-known)(?:\/|$)|\.[^/]*$/;

/**
 * Any unknown path: a visitor without a session goes to the login, back here after it (the spec's
 * guard, for every path but the public ones); a member gets the 404 page with status 404 (not a
 * redirect, so the address stays).
 */
export function loader({ request, context }: Route.LoaderArgs) {
  const url = pageUrl(request);
  const path = url.pathname + url.search;
  if (!optionalUser(context) && !NOT_A_PAGE.test(url.pathname) && safeRedirect(path, "") === path) requireUser(request, context);
  return data(null, { status: 404 });
}
