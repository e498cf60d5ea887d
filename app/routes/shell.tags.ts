import { redirect } from "react-router";
import { readShell, viewsCookie } from "~/.server/web/shell/shell-state";
import { safeRedirect } from "~/lib/safe-redirect";
import { afterClose, closeAllViews, closeOtherViews, closeView } from "~/lib/visited-views";
import type { Route } from "./+types/shell.tags";

/** Close one tab, the others, or all (affixed tabs stay); then show the page that should be shown. */
export async function action({ request }: Route.ActionArgs) {
  const form = await request.formData();
  const current = safeRedirect(form.get("current"));
  const currentPath = new URL(current, request.url).pathname;
  const { views } = readShell(request);
  const close = form.get("close");
  const others = form.get("closeOthers");
  const next =
    typeof close === "string"
      ? closeView(views, close)
      : typeof others === "string"
        ? closeOtherViews(views, others)
        : form.get("closeAll")
          ? closeAllViews()
          : views;
  return redirect(afterClose(next, currentPath, current), {
    status: 303,
    headers: { "Set-Cookie": viewsCookie(request, next) },
  });
}
