import { data } from "react-router";
import { verificationPhoto } from "~/.server/members/verification";
import { requireUser } from "~/.server/web/auth/session";
import { photoHeaders } from "~/.server/web/files/member-files";
import type { Route } from "./+types/verification.photo";

/** One ID photo, to its owner or a reviewer only (everyone else: 404, saying nothing); never cached. */
export async function loader({ request, context }: Route.LoaderArgs) {
  const user = requireUser(request, context);
  const url = new URL(request.url);
  const id = Number(url.searchParams.get("id"));
  const object = Number.isInteger(id) ? await verificationPhoto(user, id, url.searchParams.get("name") ?? "") : null;
  if (!object) throw data(null, { status: 404 });
  return new Response(object.body, { headers: photoHeaders(object) });
}
