import { mentionSuggestions } from "~/.server/social/mentions";
import { requireUser } from "~/.server/web/auth/session";
import type { Route } from "./+types/shell.mentions";

/** GET /shell/mentions?q=: members' names starting with q, for the comment form's suggestions (with JavaScript). */
export async function loader({ request, context }: Route.LoaderArgs) {
  requireUser(request, context);
  const q = new URL(request.url).searchParams.get("q") ?? "";
  return Response.json({ members: await mentionSuggestions(q) }, { headers: { "Cache-Control": "private, no-store" } });
}
