/**
 * What a member's file may do when a browser opens it: nothing. `sandbox` gives it an opaque origin
 * (no cookies, no storage, no scripts, no forms), so a file that is also a page (a polyglot) is
 * harmless even to a browser that sniffs. Chromium's and Firefox's PDF viewers still render under
 * it; the detail page may frame it.
 */
export const MEMBER_FILE_POLICY = "sandbox; default-src 'none'; frame-ancestors 'self'";
