// A small service worker (progressive enhancement: nothing needs it), served as /sw.js by
// app/routes/service-worker.ts. It keeps the scripts and translations a page used (their names
// change with their content, so a kept copy is never stale) and, when a page cannot be fetched,
// answers the offline page in the member's language. Pages themselves are never kept: a member's
// data is not left in the browser's caches.

const CACHE = "shell-__BUILD_ID__";
const LANGUAGES = ["en", "ja", "zh"];
const offline = (language) => `/offline?in=${language}`;

self.addEventListener("install", (event) => {
  // Each language's offline page, asked without cookies so the language header decides.
  const kept = caches.open(CACHE).then((cache) =>
    Promise.all(
      LANGUAGES.map(async (language) => {
        const page = await fetch("/offline", { credentials: "omit", headers: { "Accept-Language": language } });
        if (page.ok) await cache.put(offline(language), page);
      }),
    ),
  );
  event.waitUntil(kept.then(() => self.skipWaiting()));
});

self.addEventListener("activate", (event) => {
  const old = caches.keys().then((names) => Promise.all(names.filter((name) => name !== CACHE).map((name) => caches.delete(name))));
  // Pages are asked for while the worker starts, not after.
  const preload = self.registration.navigationPreload?.enable();
  event.waitUntil(Promise.all([old, preload]).then(() => self.clients.claim()));
});

// Each page says which language the member reads.
self.addEventListener("message", (event) => {
  const language = event.data?.language;
  if (LANGUAGES.includes(language))
    event.waitUntil(caches.open(CACHE).then((cache) => cache.put("/offline-language", new Response(language))));
});

self.addEventListener("fetch", (event) => {
  const request = event.request;
  const url = new URL(request.url);
  if (request.method !== "GET" || url.origin !== self.location.origin) return;
  const versioned = /^\/locales\/[a-z]+\.[0-9a-z]+\.json$|^\/enhance\/[a-z-]+\.[0-9a-f]+\.js$/;
  if (url.pathname.startsWith("/assets/") || versioned.test(url.pathname)) {
    event.respondWith(
      caches.open(CACHE).then(async (cache) => {
        const kept = await cache.match(request);
        if (kept) return kept;
        const fetched = await fetch(request);
        // Only what is named by its content (an older name may answer today's file, briefly cached).
        if (fetched.ok && fetched.headers.get("Cache-Control")?.includes("immutable")) await cache.put(request, fetched.clone());
        return fetched;
      }),
    );
  } else if (request.mode === "navigate") {
    event.respondWith(
      (async () => (await event.preloadResponse) ?? fetch(request))().catch(async () => {
        const cache = await caches.open(CACHE);
        const language = (await (await cache.match("/offline-language"))?.text()) ?? "en";
        return (await cache.match(offline(language))) ?? Response.error();
      }),
    );
  }
});
