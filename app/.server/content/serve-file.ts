import type { ContentItem } from "./content";
import { makeVariants, variantFor, variantKey } from "./thumbnail-variants";

/** Parses a single "bytes=a-b" / "bytes=a-" / "bytes=-n" range against a size; null when absent or unusable. */
export function parseRange(header: string | null, size: number): { offset: number; length: number } | "unsatisfiable" | null {
  const match = /^bytes=(\d*)-(\d*)$/.exec(header?.trim() ?? "");
  if (!match || (match[1] === "" && match[2] === "")) return null;
  let start: number;
  let end: number;
  if (match[1] === "") {
    const suffix = Number(match[2]);
    if (suffix === 0) return "unsatisfiable";
    start = Math.max(0, size - suffix);
    end = size - 1;
  } else {
    start = Number(match[1]);
    end = match[2] === "" ? size - 1 : Math.min(Number(match[2]), size - 1);
  }
  if (start >= size || start > end) return "unsatisfiable";
  return { offset: start, length: end - start + 1 };
}

/**
 * What a member's file may do when a browser opens it: nothing. `sandbox` gives it an opaque origin
 * (no cookies, no storage, no scripts, no forms), so a file that is also a page (a polyglot) is
 * harmless even to a browser that sniffs. Chromium's and Firefox's PDF viewers still render under
 * it; the detail page may frame it.
 */
export const MEMBER_FILE_POLICY = "sandbox; default-src 'none'; frame-ancestors 'self'";

/**
 * Serves an item's file or thumbnail from R2: the stored type, HTTP Range (206), ETag with 304, and a
 * safe server-chosen download name. Private items are never cached by shared caches.
 */
export async function serveContentFile(
  request: Request,
  bucket: R2Bucket,
  item: ContentItem,
  which: "file" | "thumbnail",
): Promise<Response> {
  let key = which === "file" ? item.file_key : item.thumbnail_key;
  let type = which === "file" ? item.file_type : item.thumbnail_type;
  // A card's size of the thumbnail (`?w=400`), when it can be drawn; else the thumbnail as sent.
  const width = which === "thumbnail" ? variantFor(new URL(request.url).searchParams.get("w")) : null;
  const variant = width !== null && (await makeVariants(bucket, item.thumbnail_key, width));
  if (variant) [key, type] = [variantKey(item.thumbnail_key, width), "image/jpeg"];
  const head = await bucket.head(key);
  if (!head) return new Response("Not found", { status: 404 });
  const headers = new Headers({
    "Content-Type": type,
    ETag: head.httpEtag,
    "Accept-Ranges": "bytes",
    // A variant never changes under its address (a thumbnail is never replaced): a publicized
    // item's is kept a day by any cache; private items' files by none.
    "Cache-Control": item.publicize
      ? variant
        ? "public, max-age=86400, stale-while-revalidate=604800"
        : "private, max-age=3600"
      : "private, no-store",
    "X-Content-Type-Options": "nosniff",
    "Content-Security-Policy": MEMBER_FILE_POLICY,
    "Cross-Origin-Resource-Policy": "same-origin",
  });
  if (which === "file") {
    const extension = item.file_type === "application/pdf" ? "pdf" : "mp4";
    const disposition = new URL(request.url).searchParams.has("download") ? "attachment" : "inline";
    headers.set("Content-Disposition", `${disposition}; filename="research-${item.id}.${extension}"`);
  }
  if (request.headers.get("If-None-Match") === head.httpEtag) return new Response(null, { status: 304, headers });
  const range = parseRange(request.headers.get("Range"), head.size);
  if (range === "unsatisfiable") {
    headers.set("Content-Range", `bytes */${head.size}`);
    return new Response(null, { status: 416, headers });
  }
  const object = await bucket.get(key, range ? { range } : undefined);
  if (!object) return new Response("Not found", { status: 404 });
  if (range) {
    headers.set("Content-Range", `bytes ${range.offset}-${range.offset + range.length - 1}/${head.size}`);
    headers.set("Content-Length", String(range.length));
    return new Response(object.body, { status: 206, headers });
  }
  headers.set("Content-Length", String(head.size));
  return new Response(request.method === "HEAD" ? null : object.body, { headers });
}
