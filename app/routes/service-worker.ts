import script from "~/service-worker/sw.js?raw";

/**
 * /sw.js: checked for updates on every visit (no-cache), and different with every build, so the
 * browser installs the new one (fresh offline pages, a new cache); it may fetch from this origin only.
 */
export function loader() {
  return new Response(script.replace("__BUILD_ID__", __BUILD_ID__), {
    headers: {
      "Content-Type": "text/javascript; charset=utf-8",
      "Cache-Control": "no-cache",
      "Content-Security-Policy": "default-src 'none'; connect-src 'self'",
    },
  });
}
