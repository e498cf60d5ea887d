import { plainPut } from "~/.server/dev/dev-tools";
import type { Route } from "./+types/dev.r2-put";

/**
 * A plain R2 put of the request's body, then its removal: the baseline `npm run bench` compares the
 * upload paths' throughput with. Only local builds have this route.
 */
export async function action({ request }: Route.ActionArgs) {
  if (request.method !== "PUT" || !request.body) return new Response(null, { status: 405 });
  return Response.json({ size: await plainPut(request.body) });
}
