import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { cloudflare } from "@cloudflare/vite-plugin";
import { reactRouter } from "@react-router/dev/vite";
import tailwindcss from "@tailwindcss/vite";
import { defineConfig, type Plugin } from "vite";
import { deployTarget } from "./app/lib/deploy-target";

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

export default defineConfig({
  plugins: [cloudflare({ viteEnvironment: { name: "ssr" } }), tailwindcss(), reactRouter(), apiReferenceViewer()],
  // A literal, so that local-only code is dropped from deployed builds (app/build-flags.d.ts).
  define: { __LOCAL_BUILD__: JSON.stringify(deployTarget() === "local") },
  resolve: { tsconfigPaths: true },
  // Few, larger scripts (docs/decisions/0011): on a slow mobile network each request costs a round
  // trip, so the libraries every page runs are one file and the app's shared code another, beside
  // each route's own module.
  environments: {
    client: {
      build: {
        rolldownOptions: {
          output: {
            codeSplitting: {
              groups: [
                { name: "runtime", test: /node_modules/, priority: 2 },
                { name: "shared", test: /[\\/]app[\\/]/, minShareCount: 2, priority: 1 },
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
