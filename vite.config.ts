import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { cloudflare } from "@cloudflare/vite-plugin";
import { reactRouter } from "@react-router/dev/vite";
import tailwindcss from "@tailwindcss/vite";
import { defineConfig, type Plugin } from "vite";
import { deployTarget } from "./app/lib/deploy-target";
import { enhanceModules } from "./scripts/vite-enhance";

/** The API reference's viewer (/api/docs): static files beside the client build, in no page's bundle. */
const viewerDir = dirname(createRequire(import.meta.url).resolve("swagger-ui-dist/package.json"));
const apiReferenceViewer = (): Plugin => ({
  name: "api-reference-viewer",
  applyToEnvironment: (environment) => environment.name === "client",
  generateBundle() {
    for (const file of ["swagger-ui-bundle.js", "swagger-ui.css"]) {
      this.emitFile({ type: "asset", fileName: `api-docs/${file}`, source: readFileSync(join(viewerDir, file)) });
    }
  },
});

/**
 * pdf.js for the quoting view (docs/decisions/0051): the very build the server reads documents'
 * text with (unpdf's), so the browser's text layer holds the text a quote was checked against. A
 * static file named by its hash, fetched by the on-demand part only when a member opens the pages.
 */
const pdfjs = readFileSync(new URL(import.meta.resolve("unpdf/pdfjs")));
const PDFJS_URL = `/assets/pdfjs-${createHash("sha256").update(pdfjs).digest("hex").slice(0, 12)}.mjs`;
const pdfjsAsset = (): Plugin => ({
  name: "pdfjs-asset",
  applyToEnvironment: (environment) => environment.name === "client",
  generateBundle() {
    this.emitFile({ type: "asset", fileName: PDFJS_URL.slice(1), source: pdfjs });
  },
});

/**
 * In the browser build only, i18next and react-i18next are the few lines of app/browser-i18n (about
 * 19 KB less on every page, docs/decisions/0011); the server renders with the real ones.
 */
const browserI18n = (): Plugin => ({
  name: "browser-i18n",
  enforce: "pre",
  applyToEnvironment: (environment) => environment.name === "client",
  resolveId(source) {
    if (source === "i18next") return join(import.meta.dirname, "app/browser-i18n/i18next.ts");
    if (source === "react-i18next") return join(import.meta.dirname, "app/browser-i18n/react-i18next.tsx");
    return null;
  },
});

const APP = /[\\/]app[\\/]/;
const LISTS = /[\\/]app[\\/]components[\\/](content-card|load-more|ranking-rows)\./;
const ACCOUNTS = /[\\/]app[\\/]components[\\/](code-fields|public-page)\./;

export default defineConfig({
  plugins: [
    cloudflare({ viteEnvironment: { name: "ssr" } }),
    tailwindcss(),
    reactRouter(),
    apiReferenceViewer(),
    pdfjsAsset(),
    browserI18n(),
    enhanceModules(),
  ],
  // A literal, so that local-only code is dropped from deployed builds (app/build-flags.d.ts).
  define: {
    __LOCAL_BUILD__: JSON.stringify(deployTarget() === "local"),
    __BUILD_ID__: JSON.stringify(Date.now().toString(36)),
    __PDFJS_URL__: JSON.stringify(PDFJS_URL),
  },
  resolve: { tsconfigPaths: true },
  // Few, larger scripts (docs/decisions/0011): on a slow mobile network each request costs a round
  // trip, so every library the browser runs is one file and the
  // app's code shared by routes another, beside each route's own module.
  environments: {
    client: {
      build: {
        rolldownOptions: {
          output: {
            codeSplitting: {
              groups: [
                { name: "runtime", test: /node_modules/, priority: 2 },
                {
                  name: "shared",
                  test: (id: string) => APP.test(id) && !LISTS.test(id) && !ACCOUNTS.test(id),
                  minShareCount: 2,
                  priority: 1,
                },
                // Parts only some kinds of pages use, so an item's page does not carry them: the
                // lists' cards and paging, and the public account pages' code field and frame.
                // Last, so what they import is already in the groups above.
                { name: "lists", test: LISTS, priority: 0 },
                { name: "accounts", test: ACCOUNTS, priority: 0 },
              ],
            },
          },
        },
      },
    },
  },
  server: { host: "127.0.0.1" },
  preview: { host: "127.0.0.1" },
});
