import { data, redirect } from "react-router";
import { openlyLicensed, openRecord, recordFileName } from "~/.server/content/open-records";
import { serveContentFile } from "~/.server/web/files/serve-file";
import type { Route } from "./+types/file";

/**
 * /records/{id}/{id}.pdf (or .mp4) and /records/{id}/thumbnail: an open record's file, to anyone
 * where its licence lets anyone read it (all rights reserved stays for members), and its thumbnail
 * for link previews. Anything else sends the visitor to sign in.
 */
export async function loader({ request, params }: Route.LoaderArgs) {
  const record = await openRecord(Number(params.id));
  if (record === "gone") throw data(null, { status: 410 });
  const members = `/retrieval/detail?id=${Number(params.id) || 0}`;
  if (!record) throw redirect(`/login?redirect=${encodeURIComponent(members)}`);
  if (params.file === "thumbnail") return serveContentFile(request, record, "thumbnail");
  if (params.file !== recordFileName(record)) throw data(null, { status: 404 });
  if (!openlyLicensed(record.license)) throw redirect(`/login?redirect=${encodeURIComponent(members)}`);
  return serveContentFile(request, record, "file");
}
