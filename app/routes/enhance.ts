import { onDemand } from "virtual:enhance";
import type { Route } from "./+types/enhance";

/**
 * A module's part fetched when first needed (scripts/vite-enhance.ts, docs/decisions/0047):
 * /enhance/<name>.<version>.js is cached for good; another version (a page from before a deploy)
 * gets today's, briefly cached.
 */
export function loader({ params }: Route.LoaderArgs) {
  const [, name = "", version] = /^([a-z-]+)\.([0-9a-f]+)\.js$/.exec(params.file) ?? [];
  const part = Object.hasOwn(onDemand, name) ? onDemand[name] : undefined;
  if (!part) return new Response("Not found", { status: 404 });
  return new Response(part.code, {
    headers: {
      "Content-Type": "text/javascript; charset=utf-8",
      "Cache-Control":
        version === part.version ? "public, max-age=31536000, immutable" : "public, max-age=300, stale-while-revalidate=86400",
    },
  });
}
