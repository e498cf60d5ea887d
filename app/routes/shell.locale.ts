import { redirect } from "react-router";
import { isLanguage, LANGUAGE_COOKIE } from "~/lib/i18n";
import { safeRedirect } from "~/lib/safe-redirect";
import { ONE_YEAR, serializeCookie } from "~/server/http/cookies";
import { flashCookie } from "~/server/shell/flash";
import type { Route } from "./+types/shell.locale";

/** JP / EN / CN: the explicit choice is kept in a cookie and wins over Accept-Language. */
export async function action({ request }: Route.ActionArgs) {
  const form = await request.formData();
  const lang = form.get("lang");
  const back = safeRedirect(form.get("redirectTo"));
  if (!isLanguage(lang)) {
    return redirect(back, { status: 303, headers: { "Set-Cookie": flashCookie(request, "error", "notify.requestFailed") } });
  }
  const headers = new Headers();
  headers.append("Set-Cookie", serializeCookie(request, LANGUAGE_COOKIE, lang, { maxAge: ONE_YEAR, httpOnly: false }));
  headers.append("Set-Cookie", flashCookie(request, "success", "notify.switchLanguageSuccess"));
  return redirect(back, { status: 303, headers });
}
