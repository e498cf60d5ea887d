// How members' files are answered: sandboxed, never sniffed (docs/decisions/0034: a Response is web's).

/**
 * What a member's file may do when a browser opens it: nothing. `sandbox` gives it an opaque origin
 * (no cookies, no storage, no scripts, no forms), so a file that is also a page (a polyglot) is
 * harmless even to a browser that sniffs. Chromium's and Firefox's PDF viewers still render under
 * it; the detail page may frame it.
 */
export const MEMBER_FILE_POLICY = "sandbox; default-src 'none'; frame-ancestors 'self'";

/** How an ID photo is served, to its owner or a reviewer, page or API alike: never cached, sandboxed, not sniffed. */
export const photoHeaders = (object: R2ObjectBody) => ({
  "Content-Type": object.httpMetadata?.contentType ?? "application/octet-stream",
  "Cache-Control": "private, no-store",
  "X-Content-Type-Options": "nosniff",
  "Content-Security-Policy": MEMBER_FILE_POLICY,
  "Cross-Origin-Resource-Policy": "same-origin",
});

/** A language's captions as a WebVTT file (its address is the platform's own, so players read it). */
export const captionFileAnswer = (contentId: number, lang: string, vtt: string) =>
  new Response(vtt, {
    headers: {
      "Content-Type": "text/vtt; charset=utf-8",
      "Content-Disposition": `inline; filename="${contentId}.${lang}.vtt"`,
      "Cache-Control": "private, no-cache",
      "X-Content-Type-Options": "nosniff",
      "Content-Security-Policy": MEMBER_FILE_POLICY,
    },
  });

/** An avatar, public like the name beside it and cached for good (each change has a new address); 404 for none. */
export function avatarAnswer(object: R2ObjectBody | null): Response {
  if (!object) return new Response("Not found", { status: 404, headers: { "Cache-Control": "no-store" } });
  return new Response(object.body, {
    headers: {
      "Content-Type": "image/jpeg",
      "Content-Length": String(object.size),
      "Cache-Control": "public, max-age=31536000, immutable",
      ETag: object.httpEtag,
    },
  });
}
