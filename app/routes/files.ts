import { requireUser } from "~/.server/auth/session";
import { env } from "~/.server/bindings";
import { findContent } from "~/.server/content/content";
import { serveContentFile } from "~/.server/content/serve-file";
import type { Route } from "./+types/files";

/** /files/{id} and /files/{id}/thumbnail: for members, and a private item only for its owner (else 404). */
export async function loader({ request, context, params }: Route.LoaderArgs) {
  const user = requireUser(request, context);
  const item = await findContent(env.DB, Number(params.id), user.id);
  if (!item || !Number.isInteger(Number(params.id)))
    return new Response("Not found", { status: 404, headers: { "Cache-Control": "no-store" } });
  const which = new URL(request.url).pathname.endsWith("/thumbnail") ? "thumbnail" : "file";
  return serveContentFile(request, env.FILES, item, which);
}
