import { redirect } from "react-router";
import { loginWithOrcid } from "~/.server/accounts/accounts";
import { beginOrcidSignup, finishOrcid, linkReturned, orcidTrip } from "~/.server/accounts/orcid";
import { callerFrom } from "~/.server/web/auth/caller";
import { signInHeaders } from "~/.server/web/auth/form-actions";
import { clearOrcidState, orcidSignupCookie, readOrcidState } from "~/.server/web/auth/orcid-cookies";
import { optionalUser } from "~/.server/web/auth/session";
import { flashRedirect } from "~/.server/web/shell/flash";
import { refusalNotice } from "~/.server/web/shell/refusals";
import { pageUrl } from "~/.server/web/shell/shell-state";
import { safeRedirect } from "~/lib/safe-redirect";
import type { Route } from "./+types/callback";

// GET /auth/orcid/callback: ORCID sends the member back here with a code (or an error). Linking
// needs the member who started it still signed in; signing in starts a session as a password login
// does; an iD without an account starts sign-up (the account type and kind still chosen, the email
// still verified by a code). These are writes on a GET (OAuth's redirect is one), made only when the
// query is the trip this browser's signed cookie holds (decision 0013): a callback any other link
// leads to writes nothing, the browser's own trip included.

export async function loader({ request, context }: Route.LoaderArgs) {
  const url = pageUrl(request);
  const now = Date.now();
  const headers = new Headers();
  const user = optionalUser(context);
  try {
    const trip = await orcidTrip(url.searchParams, readOrcidState(request), now);
    // This browser's own trip: taken once, whatever ORCID answers.
    headers.append("Set-Cookie", clearOrcidState(request));
    const back = await finishOrcid(url.searchParams, trip, url.origin, now);
    if (back.intent === "link") {
      await linkReturned(user?.id, back, now);
      return flashRedirect(request, "/personal/Setting?section=account#orcid", "success", "notify.orcidLinked", { headers });
    }
    const session = await loginWithOrcid(back.orcid, callerFrom(request, context));
    if (session) {
      for (const cookie of (await signInHeaders(request, context, session.token, session.user)).getSetCookie())
        headers.append("Set-Cookie", cookie);
      return redirect(safeRedirect(back.redirect), { status: 303, headers });
    }
    headers.append("Set-Cookie", orcidSignupCookie(request, await beginOrcidSignup(back, now)));
    return flashRedirect(request, "/signup", "info", "notify.orcidNoAccount", { headers });
  } catch (error) {
    return refusalNotice(request, user ? "/personal/Setting?section=account#orcid" : "/login", error, headers);
  }
}
