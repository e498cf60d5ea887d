/**
 * True in builds for `npm start`, `npm run dev` and the tests; false when built for a deployment
 * (CLOUDFLARE_ENV=preview or production). Replaced by a literal at build time (vite.config.ts), so
 * local-only code behind it is not in a deployed bundle at all.
 */
declare const __LOCAL_BUILD__: boolean;

/** Names this build (its time): the service worker's cache is this build's, older ones are dropped. */
declare const __BUILD_ID__: string;

/** Where the client build put pdf.js for the quoting view (vite.config.ts, docs/decisions/0051). */
declare const __PDFJS_URL__: string;
