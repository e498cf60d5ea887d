const BASE = "http://same.origin";

/**
 * A same-origin path to send a visitor to, or the fallback. Decided on the path as a browser will
 * read it, after normalising: absolute URLs, protocol-relative paths ("//host", and "/.//host" or
 * "/\\host", which become it) and control characters all get the fallback.
 */
export function safeRedirect(target: FormDataEntryValue | string | null | undefined, fallback = "/home"): string {
  if (typeof target !== "string" || !target.startsWith("/") || /[\u0000-\u001f\u007f]/.test(target)) return fallback;
  try {
    const url = new URL(target, BASE);
    const path = url.pathname + url.search + url.hash;
    return url.origin === BASE && !path.startsWith("//") ? path : fallback;
  } catch {
    return fallback;
  }
}
