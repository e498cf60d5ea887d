import { config } from "~/.server/config/config";

// /robots.txt: the site is for signed-in members (the spec), so crawlers are asked to stay out;
// where the operator allows open records (decision 0049), they may read those, listed in the sitemap,
// and harvest them through OAI-PMH.

export function loader({ request }: { request: Request }) {
  const rules = config().openRecords
    ? `User-agent: *\nAllow: /records/\nAllow: /oai\nDisallow: /\n\nSitemap: ${new URL(request.url).origin}/sitemap.xml\n`
    : "User-agent: *\nDisallow: /\n";
  return new Response(rules, { headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "public, max-age=3600" } });
}
