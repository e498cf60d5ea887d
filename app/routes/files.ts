import { findContentFor } from "~/.server/content/content";
import { askedVersion, itemAtVersion } from "~/.server/content/versions";
import { countReading, downloadOf } from "~/.server/stats/readings";
import { requireUser } from "~/.server/web/auth/session";
import { afterAnswer } from "~/.server/web/context";
import { serveContentFile } from "~/.server/web/files/serve-file";
import { servedOf } from "~/.server/web/readings";
import type { Route } from "./+types/files";

/**
 * /files/{id} and /files/{id}/thumbnail: for members, a private item only for its owner, a hidden one
 * also for moderators deciding on it (else 404).
 */
export async function loader({ request, context, params }: Route.LoaderArgs) {
  const user = requireUser(request, context);
  const found = Number.isInteger(Number(params.id)) ? (await findContentFor(Number(params.id), user))?.item : null;
  // An earlier version's file stays at its address: /files/{id}?version=n.
  const version = found ? await askedVersion(found, new URL(request.url).searchParams.get("version")) : undefined;
  const item = found && version !== undefined ? itemAtVersion(found, version) : null;
  if (!item) return new Response("Not found", { status: 404, headers: { "Cache-Control": "no-store" } });
  const which = new URL(request.url).pathname.endsWith("/thumbnail") ? "thumbnail" : "file";
  const served = await serveContentFile(request, item, which);
  if (which === "file") countReading(downloadOf(item, user, servedOf(request, served), Date.now()), afterAnswer(context));
  return served;
}
