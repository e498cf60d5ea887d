import script from "~/service-worker/sw.js?raw";

/** /sw.js: checked for updates on every visit (no-cache); it may fetch from this origin only. */
export function loader() {
  return new Response(script, {
    headers: {
      "Content-Type": "text/javascript; charset=utf-8",
      "Cache-Control": "no-cache",
      "Content-Security-Policy": "default-src 'none'; connect-src 'self'",
    },
  });
}
