// /robots.txt: the site is for signed-in members (the spec), so every crawler is asked to stay out.
// Open records (OPEN_RECORDS, decision 0049) will list their own paths here when they are served.

export function loader() {
  return new Response("User-agent: *\nDisallow: /\n", {
    headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "public, max-age=3600" },
  });
}
