import { redirect } from "react-router";
import { safeRedirect } from "~/lib/safe-redirect";
import type { Route } from "./+types/redirect";

/** The spec's refresh helper: /redirect/{path} goes back to /{path}, reloading its data. */
export function loader({ params, request }: Route.LoaderArgs) {
  const search = new URL(request.url).search;
  return redirect(safeRedirect(`/${params["*"] ?? ""}${search}`, "/home"));
}
