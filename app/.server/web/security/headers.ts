/** A fresh nonce for the page's scripts and styles: 128 random bits, base64. */
export function createNonce(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return btoa(String.fromCharCode(...bytes));
}

/**
 * The policy for a page (with its nonce) or anything else (null); `frameOrigin` is one more origin the
 * page may frame, `formOrigin` one more a form may lead to (ORCID's sign-in, which the ORCID buttons'
 * posts redirect to: browsers hold redirects after a form post to form-action too).
 */
export function contentSecurityPolicy(nonce: string | null, frameOrigin?: string, formOrigin?: string | null): string {
  if (!nonce) return "default-src 'none'; frame-ancestors 'self'; base-uri 'none'; form-action 'self'";
  return [
    "default-src 'self'",
    `script-src 'nonce-${nonce}' 'strict-dynamic'`,
    `style-src 'self' 'nonce-${nonce}'`,
    "style-src-attr 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "media-src 'self' blob:",
    "font-src 'self'",
    "connect-src 'self'",
    // The service worker (/sw.js); 'strict-dynamic' would otherwise leave it no source.
    "worker-src 'self'",
    frameOrigin ? `frame-src 'self' ${frameOrigin}` : "frame-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    formOrigin ? `form-action 'self' ${formOrigin}` : "form-action 'self'",
    "frame-ancestors 'self'",
  ].join("; ");
}

/**
 * Adds the security headers every response carries. HTML gets a nonce-based policy; anything else a
 * policy that allows nothing to run. Existing policies (set closer to the content) are kept.
 */
export function withSecurityHeaders(response: Response, nonce: string, formOrigin?: string | null): Response {
  if (response.status === 101) return response; // a WebSocket upgrade cannot be modified
  const secured = new Response(response.body, response);
  const headers = secured.headers;
  const isHtml = headers.get("Content-Type")?.startsWith("text/html") ?? false;
  if (!headers.has("Content-Security-Policy")) {
    headers.set("Content-Security-Policy", contentSecurityPolicy(isHtml ? nonce : null, undefined, formOrigin));
  }
  headers.set("Strict-Transport-Security", "max-age=63072000; includeSubDomains");
  headers.set("X-Content-Type-Options", "nosniff");
  headers.set("Referrer-Policy", "strict-origin-when-cross-origin");
  headers.set("X-Frame-Options", "SAMEORIGIN");
  // A page that embeds a meeting grants its provider the camera and microphone (meeting-join.tsx).
  if (!headers.has("Permissions-Policy")) headers.set("Permissions-Policy", "camera=(), microphone=(), geolocation=(), payment=()");
  headers.set("Cross-Origin-Opener-Policy", "same-origin");
  return secured;
}

/** What a meeting's join page allows its provider's frame, and only that origin. */
export function meetingPermissions(origin: string): string {
  return `camera=(self "${origin}"), microphone=(self "${origin}"), display-capture=(self "${origin}"), fullscreen=(self "${origin}"), geolocation=(), payment=()`;
}
