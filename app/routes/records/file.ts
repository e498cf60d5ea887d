import { data, redirect } from "react-router";
import { captionFileText } from "~/.server/content/captions";
import type { ContentItem } from "~/.server/content/content";
import { licenseInfo } from "~/.server/content/licenses";
import { openlyLicensed, openRecord, recordFileName } from "~/.server/content/open-records";
import { captionFileAnswer } from "~/.server/web/files/member-files";
import { serveContentFile } from "~/.server/web/files/serve-file";
import { languageOf } from "~/.server/web/i18n/request-language";
import type { CitationFile } from "~/lib/citations";
import type { Route } from "./+types/file";
import { backLinks, LINKSET_TYPE, landingLinks, linkset, metadataFiles, openFileUrl } from "./signposts";

/**
 * /records/{id}/{id}.pdf (or .mp4 with captions-{lang}.vtt), /records/{id}/thumbnail and
 * /records/{id}/citation.bib (.ris, .json): an open record's file and a video's captions, to anyone
 * where its licence lets anyone read it (all rights reserved stays for members), its thumbnail for link previews, and its metadata for machines, each
 * signposted back to the record. Anything else sends the visitor to sign in.
 */
export async function loader({ request, params }: Route.LoaderArgs) {
  const record = await openRecord(Number(params.id));
  if (record === "gone") throw data(null, { status: 410 });
  const members = `/retrieval/detail?id=${Number(params.id) || 0}`;
  if (!record) throw redirect(`/login?redirect=${encodeURIComponent(members)}`);
  const home = `${new URL(request.url).origin}/records/${record.id}/`;
  if (params.file === "thumbnail") return serveContentFile(request, record, "thumbnail");
  if (params.file === "linkset") {
    const links = landingLinks(record, home, openFileUrl(record, home), licenseInfo(record.license));
    return Response.json(linkset(links, home), { headers: { "Content-Type": LINKSET_TYPE, "Cache-Control": "public, max-age=300" } });
  }
  const metadata = metadataFiles(home).find(({ href }) => href === `${home}${params.file}`);
  if (metadata) return citationFile(request, record, home, metadata);
  const captions = /^captions-([A-Za-z0-9-]{1,35})\.vtt$/.exec(params.file ?? "")?.[1];
  if (params.file !== recordFileName(record) && !(captions && record.kind === "video")) throw data(null, { status: 404 });
  if (!openlyLicensed(record.license)) throw redirect(`/login?redirect=${encodeURIComponent(members)}`);
  if (captions) return captionsFile(record.id, captions, home);
  const served = await serveContentFile(request, record, "file");
  served.headers.set("Link", backLinks(home, "collection"));
  return served;
}

/** A language's captions of an open video, which anyone may read with it; 404 for a language it has none in. */
async function captionsFile(id: number, lang: string, home: string) {
  const vtt = await captionFileText(id, lang);
  if (!vtt) throw data(null, { status: 404 });
  const answer = captionFileAnswer(id, lang, vtt);
  answer.headers.set("Cache-Control", "public, max-age=300");
  answer.headers.set("Link", backLinks(home, "collection"));
  return answer;
}

/** The record's citation as a metadata file a machine reads (Signposting's `describedby`), citing the record itself. */
async function citationFile(request: Request, record: ContentItem, home: string, { format, type }: { format: CitationFile; type: string }) {
  const { citeItem } = await import("~/.server/content/citation");
  const cited = citeItem(record, home, [format], languageOf(request))[format];
  return new Response(cited, {
    headers: { "Content-Type": `${type}; charset=utf-8`, "Cache-Control": "public, max-age=300", Link: backLinks(home, "describes") },
  });
}
