import { captionFileText } from "~/.server/content/captions";
import { findContentFor } from "~/.server/content/content";
import { requireUser } from "~/.server/web/auth/session";
import { captionFileAnswer } from "~/.server/web/files/member-files";
import { captionLang } from "~/lib/captions";
import type { Route } from "./+types/caption-file";

/** /files/{id}/captions/{lang}.vtt: a video's captions for its player, to whoever may see the video (else 404). */
export async function loader({ request, context, params }: Route.LoaderArgs) {
  const user = requireUser(request, context);
  const lang = captionLang(params.file.replace(/\.vtt$/, ""));
  const item =
    lang && params.file.endsWith(".vtt") && Number.isInteger(Number(params.id))
      ? (await findContentFor(Number(params.id), user))?.item
      : null;
  const vtt = item && lang ? await captionFileText(item.id, lang) : null;
  if (!item || !lang || vtt === null) return new Response("Not found", { status: 404, headers: { "Cache-Control": "no-store" } });
  return captionFileAnswer(item.id, lang, vtt);
}
