import { localeBody } from "~/.server/i18n/locale-files";
import { isLanguage } from "~/lib/i18n";
import type { Route } from "./+types/locales";

/**
 * The client's translations for hydration, one language per file: /locales/ja.<version>.json is
 * cached for good; any other version (a page from before a deploy) gets today's, briefly cached.
 */
export function loader({ params }: Route.LoaderArgs) {
  const [, lang = "", version] = /^([a-z]+)(?:\.([0-9a-z]+))?\.json$/.exec(params.file) ?? [];
  if (!isLanguage(lang)) return new Response("Not found", { status: 404 });
  const body = localeBody(lang);
  return new Response(body.json, {
    headers: {
      "Content-Type": "application/json; charset=utf-8",
      "Cache-Control":
        version === body.version ? "public, max-age=31536000, immutable" : "public, max-age=300, stale-while-revalidate=86400",
    },
  });
}
