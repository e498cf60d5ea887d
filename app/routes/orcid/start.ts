import { data, redirect } from "react-router";
import { type OrcidIntent, orcidEnabled, startOrcid } from "~/.server/accounts/orcid";
import { clientAddress } from "~/.server/security/rate-limit";
import { orcidStateCookie } from "~/.server/web/auth/orcid-cookies";
import { optionalUser, requireUser } from "~/.server/web/auth/session";
import { refusalNotice } from "~/.server/web/shell/refusals";
import { pageUrl } from "~/.server/web/shell/shell-state";
import { safeRedirect } from "~/lib/safe-redirect";
import type { Route } from "./+types/start";

// POST /auth/orcid: the "Sign in with ORCID" and "Link ORCID iD" buttons (plain forms). The browser
// goes to ORCID with a fresh state and nonce; ORCID sends it back to /auth/orcid/callback. Too many
// starts from one address go back to the login page (Settings, for a link) with "too many requests".

export async function action({ request, context }: Route.ActionArgs) {
  if (!orcidEnabled()) throw data(null, { status: 404 });
  const form = await request.formData();
  const intent: OrcidIntent = form.get("intent") === "link" ? "link" : "login";
  const user = intent === "link" ? requireUser(request, context) : optionalUser(context);
  if (intent === "login" && user) throw redirect("/home", { status: 303 });
  try {
    const { location, cookie } = await startOrcid(
      {
        intent,
        userId: user?.id ?? null,
        redirect: intent === "login" ? safeRedirect(form.get("redirect")) : null,
        origin: pageUrl(request).origin,
        client: clientAddress(request),
      },
      Date.now(),
    );
    return redirect(location, { status: 303, headers: { "Set-Cookie": orcidStateCookie(request, cookie) } });
  } catch (error) {
    return refusalNotice(request, intent === "link" ? "/personal/Setting?section=account#orcid" : "/login", error);
  }
}

export const loader = () => {
  throw data(null, { status: 405 });
};
