import { saveLanguage } from "~/.server/accounts/accounts";
import { Refused } from "~/.server/refused";
import { optionalUser } from "~/.server/web/auth/session";
import { languageCookie } from "~/.server/web/i18n/language-cookie";
import { flashRedirect } from "~/.server/web/shell/flash";
import { refusalNotice } from "~/.server/web/shell/refusals";
import { isLanguage } from "~/lib/i18n";
import { safeRedirect } from "~/lib/safe-redirect";
import type { Route } from "./+types/shell.locale";

/** JP / EN / CN: the explicit choice is kept in a cookie and wins over Accept-Language. */
export async function action({ request, context }: Route.ActionArgs) {
  const form = await request.formData();
  const lang = form.get("lang");
  const back = safeRedirect(form.get("redirectTo"));
  if (!isLanguage(lang)) {
    return refusalNotice(request, back, new Refused("notify.requestFailed"));
  }
  // A signed-in member's choice is saved with the account, so mail and other browsers follow it.
  const member = optionalUser(context);
  if (member && member.language !== lang) await saveLanguage(member.id, lang);
  const headers = new Headers([["Set-Cookie", languageCookie(request, lang)]]);
  return flashRedirect(request, back, "success", "notify.switchLanguageSuccess", { headers });
}
