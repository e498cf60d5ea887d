import { ONE_YEAR, serializeCookie } from "~/.server/http/cookies";
import { Refused } from "~/.server/refused";
import { flashRedirect } from "~/.server/web/shell/flash";
import { refusalNotice } from "~/.server/web/shell/refusals";
import { isSize, SIZE_COOKIE } from "~/lib/display-size";
import { safeRedirect } from "~/lib/safe-redirect";
import type { Route } from "./+types/shell.size";

/** Small, medium or large: kept in a cookie, read by every page's root (a plain form, no JavaScript needed). */
export async function action({ request }: Route.ActionArgs) {
  const form = await request.formData();
  const size = form.get("size");
  const back = safeRedirect(form.get("redirectTo"));
  if (!isSize(size)) return refusalNotice(request, back, new Refused("notify.requestFailed"));
  const headers = new Headers([["Set-Cookie", serializeCookie(request, SIZE_COOKIE, size, { maxAge: ONE_YEAR })]]);
  return flashRedirect(request, back, "success", "notify.sizeSaved", { headers });
}
