import { data } from "react-router";
import { requireUser } from "~/.server/auth/session";
import { env } from "~/.server/bindings";
import { MEMBER_FILE_POLICY } from "~/.server/content/serve-file";
import { photoKey } from "~/.server/members/verification";
import type { Route } from "./+types/verification.photo";

/** One ID photo, to its owner or a reviewer only (everyone else: 404, saying nothing); never cached. */
export async function loader({ request, context }: Route.LoaderArgs) {
  const user = requireUser(request, context);
  const url = new URL(request.url);
  const key = await photoKey(env.DB, user, Number(url.searchParams.get("id")), url.searchParams.get("name") ?? "");
  const object = key ? await env.FILES.get(key) : null;
  if (!object) throw data(null, { status: 404 });
  return new Response(object.body, {
    headers: {
      "Content-Type": object.httpMetadata?.contentType ?? "application/octet-stream",
      "Cache-Control": "private, no-store",
      "X-Content-Type-Options": "nosniff",
      "Content-Security-Policy": MEMBER_FILE_POLICY,
      "Cross-Origin-Resource-Policy": "same-origin",
    },
  });
}
