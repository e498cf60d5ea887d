/**
 * A same-origin path to send a visitor to, or the fallback. Refuses absolute URLs,
 * protocol-relative ("//host") and backslash tricks ("/\\host") that browsers treat as external.
 */
export function safeRedirect(target: FormDataEntryValue | string | null | undefined, fallback = "/home"): string {
  if (typeof target !== "string" || !target.startsWith("/")) return fallback;
  if (target.startsWith("//") || target.startsWith("/\\") || /[\u0000-\u001f]/.test(target)) return fallback;
  try {
    const url = new URL(target, "http://same.origin");
    if (url.origin !== "http://same.origin") return fallback;
    return url.pathname + url.search + url.hash;
  } catch {
    return fallback;
  }
}
