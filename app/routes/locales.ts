import { resources } from "#locales/index";
import { isLanguage } from "~/lib/i18n";
import type { Route } from "./+types/locales";

/** The client's translations for hydration, one language per file (/locales/ja.json). */
export function loader({ params }: Route.LoaderArgs) {
  const lang = params.file.replace(/\.json$/, "");
  if (!isLanguage(lang) || !params.file.endsWith(".json")) return new Response("Not found", { status: 404 });
  return Response.json(resources[lang].translation, {
    headers: { "Cache-Control": "public, max-age=300, stale-while-revalidate=86400" },
  });
}
