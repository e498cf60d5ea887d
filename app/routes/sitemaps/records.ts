import { data } from "react-router";
import { openlyLicensed, recordFileName, sitemapRecords } from "~/.server/content/open-records";
import { xmlAnswer } from "~/.server/web/xml";

/** /sitemaps/records-{n}.xml: open records' pages and, where anyone may read them, their files, with when each last changed. */
export async function loader({ request, params }: { request: Request; params: { file?: string } }) {
  const n = Number(/^records-(\d+)\.xml$/.exec(params.file ?? "")?.[1]);
  const records = await sitemapRecords(n);
  if (records.length === 0) throw data(null, { status: 404 });
  const origin = new URL(request.url).origin;
  const urls = records.flatMap((record) => {
    const page = `${origin}/records/${record.id}/`;
    const lastmod = new Date(record.updated_at).toISOString();
    return [page, ...(openlyLicensed(record.license) ? [`${page}${recordFileName(record)}`] : [])].map(
      (loc) => `<url><loc>${loc}</loc><lastmod>${lastmod}</lastmod></url>`,
    );
  });
  return xmlAnswer(`<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${urls.join("")}</urlset>`);
}
