import { data } from "react-router";
import { env } from "~/.server/bindings";
import { avatarObject } from "~/.server/members/avatar";
import type { Route } from "./+types/avatar";

/** An avatar: public like the member's name beside it; each change has a new address, so cached for good. */
export async function loader({ params }: Route.LoaderArgs) {
  const object = await avatarObject(env.FILES, params.member, params.file);
  if (!object) throw data(null, { status: 404 });
  return new Response(object.body, {
    headers: {
      "Content-Type": "image/jpeg",
      "Content-Length": String(object.size),
      "Cache-Control": "public, max-age=31536000, immutable",
      ETag: object.httpEtag,
    },
  });
}
