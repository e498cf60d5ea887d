import { env } from "~/.server/bindings";
import { newFileKey } from "~/.server/storage/files";
import type { Route } from "./+types/dev.r2-put";

/**
 * A plain R2 put of the request's body, then its removal: the baseline `npm run bench` compares the
 * upload paths' throughput with. Only local builds have this route.
 */
export async function action({ request }: Route.ActionArgs) {
  if (request.method !== "PUT" || !request.body) return new Response(null, { status: 405 });
  const key = newFileKey("files");
  const stored = await env.FILES.put(key, request.body);
  await env.FILES.delete(key);
  return Response.json({ size: stored?.size ?? 0 });
}
