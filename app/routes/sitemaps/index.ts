import { data } from "react-router";
import { sitemapCount } from "~/.server/content/open-records";
import { xmlAnswer } from "~/.server/web/xml";

/** /sitemap.xml: the sitemap index of the open records (decision 0049); none while the site keeps them closed. */
export async function loader({ request }: { request: Request }) {
  const count = await sitemapCount();
  if (count === 0) throw data(null, { status: 404 });
  const origin = new URL(request.url).origin;
  const children = Array.from({ length: count }, (_, i) => `<sitemap><loc>${origin}/sitemaps/records-${i + 1}.xml</loc></sitemap>`);
  return xmlAnswer(`<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${children.join("")}</sitemapindex>`);
}
