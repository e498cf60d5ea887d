import { redirect } from "react-router";
import { clearCookie, ONE_YEAR, serializeCookie } from "~/.server/http/cookies";
import { MOBILE_MENU_COOKIE, SIDEBAR_COOKIE } from "~/.server/web/shell/shell-state";
import { safeRedirect } from "~/lib/safe-redirect";
import type { Route } from "./+types/shell.sidebar";

/** The hamburger: "open" (1/0) is remembered; "mobile" opens the menu over the page for one view. */
export async function action({ request }: Route.ActionArgs) {
  const form = await request.formData();
  const headers = new Headers();
  const open = form.get("open");
  if (open === "1" || open === "0") {
    headers.append("Set-Cookie", serializeCookie(request, SIDEBAR_COOKIE, open, { maxAge: ONE_YEAR, httpOnly: false }));
  }
  const mobile = form.get("mobile");
  if (mobile === "open") headers.append("Set-Cookie", serializeCookie(request, MOBILE_MENU_COOKIE, "1", { maxAge: 60 }));
  if (mobile === "close") headers.append("Set-Cookie", clearCookie(request, MOBILE_MENU_COOKIE));
  return redirect(safeRedirect(form.get("redirectTo")), { status: 303, headers });
}
