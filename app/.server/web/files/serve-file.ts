import { env } from "~/.server/bindings";
import type { ContentItem } from "~/.server/content/content";
import { makeVariants, variantFor, variantKey, variantTypeFor } from "~/.server/content/thumbnail-variants";
import { MEMBER_FILE_POLICY } from "./member-files";

/**
 * A single "bytes=a-b" / "bytes=a-" / "bytes=-n" range as R2 takes it (R2 knows the size and clamps
 * the end to it); null when absent or unusable (the whole file), "unsatisfiable" when it never fits.
 */
export function requestedRange(header: string | null): R2Range | "unsatisfiable" | null {
  const match = /^bytes=(\d*)-(\d*)$/.exec(header?.trim() ?? "");
  if (!match || (match[1] === "" && match[2] === "")) return null;
  if (match[1] === "") return Number(match[2]) === 0 ? "unsatisfiable" : { suffix: Number(match[2]) };
  const start = Number(match[1]);
  if (match[2] === "") return { offset: start };
  const end = Number(match[2]);
  return start > end ? "unsatisfiable" : { offset: start, length: end - start + 1 };
}

/**
 * Serves an item's file or thumbnail from R2 (one read, which answers the condition and the range
 * itself; a card-sized thumbnail first checks its variant is made): the stored type, HTTP Range (206), ETag with 304, and a
 * safe server-chosen download name. Private items are never cached by shared caches.
 */
export async function serveContentFile(request: Request, item: ContentItem, which: "file" | "thumbnail"): Promise<Response> {
  const bucket = env.FILES;
  let key = which === "file" ? item.file_key : item.thumbnail_key;
  let type = which === "file" ? item.file_type : item.thumbnail_type;
  // A card's size of the thumbnail (`?w=400`), when it can be drawn; else the thumbnail as sent.
  const width = which === "thumbnail" ? variantFor(new URL(request.url).searchParams.get("w")) : null;
  const variant = width !== null && (await makeVariants(item.thumbnail_key));
  if (variant) {
    const variantType = variantTypeFor(request.headers.get("Accept"));
    [key, type] = [variantKey(item.thumbnail_key, width, variantType), variantType];
  }
  const headers = new Headers({
    "Content-Type": type,
    "Accept-Ranges": "bytes",
    // Members' files: kept by the member's browser only (a variant, which never changes under its
    // address, for a day), and a private item's by nothing.
    "Cache-Control": item.publicize ? (variant ? "private, max-age=86400" : "private, max-age=3600") : "private, no-store",
    "X-Content-Type-Options": "nosniff",
    "Content-Security-Policy": MEMBER_FILE_POLICY,
    "Cross-Origin-Resource-Policy": "same-origin",
  });
  // One address, two types: a cache keeps each browser's by what it accepts.
  if (variant) headers.set("Vary", "Accept");
  if (which === "file") {
    const extension = item.file_type === "application/pdf" ? "pdf" : "mp4";
    const disposition = new URL(request.url).searchParams.has("download") ? "attachment" : "inline";
    headers.set("Content-Disposition", `${disposition}; filename="research-${item.id}.${extension}"`);
  }
  // One call: R2 answers the condition (If-None-Match) and the range itself.
  const range = requestedRange(request.headers.get("Range"));
  const object =
    range === "unsatisfiable"
      ? "unsatisfiable"
      : await bucket.get(key, { onlyIf: request.headers, ...(range ? { range } : {}) }).catch((error: unknown) => {
          // A range that starts past the end (R2's error 10039).
          if (/10039|not satisfiable/.test(String(error))) return "unsatisfiable" as const;
          throw error;
        });
  if (object === "unsatisfiable") {
    const size = (await bucket.head(key))?.size;
    if (size === undefined) return new Response("Not found", { status: 404 });
    headers.set("Content-Range", `bytes */${size}`);
    return new Response(null, { status: 416, headers });
  }
  if (!object) return new Response("Not found", { status: 404 });
  headers.set("ETag", object.httpEtag);
  // The condition held against it: the browser's copy is current.
  const body = "body" in object ? (object as R2ObjectBody).body : null;
  if (!body) return new Response(null, { status: request.headers.has("If-None-Match") ? 304 : 412, headers });
  const served = object.range as { offset: number; length: number } | undefined;
  if (range && served) {
    headers.set("Content-Range", `bytes ${served.offset}-${served.offset + served.length - 1}/${object.size}`);
    headers.set("Content-Length", String(served.length));
    return new Response(body, { status: 206, headers });
  }
  headers.set("Content-Length", String(object.size));
  return new Response(request.method === "HEAD" ? null : body, { headers });
}
