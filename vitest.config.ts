import { cloudflareTest, readD1Migrations } from "@cloudflare/vitest-plugin";
import { defineConfig } from "vitest/config";

// Three layers: services against real D1/R2/Durable Objects in workerd, components in happy-dom,
// and plain logic in Node. Browser tests against the built worker are Playwright's (tests/e2e).
export default defineConfig({
  resolve: { tsconfigPaths: true },
  define: { __LOCAL_BUILD__: "true", __BUILD_ID__: JSON.stringify("test") },
  test: {
    projects: [
      {
        extends: true,
        plugins: [
          cloudflareTest(async () => ({
            main: "./tests/workers/worker.ts",
            wrangler: { configPath: "./wrangler.toml" },
            miniflare: {
              bindings: { TEST_MIGRATIONS: await readD1Migrations("./migrations") },
              // The API's per-member limit, low enough that a test reaches it (wrangler.toml's local one is for the browser suites).
              ratelimits: { API_LIMITER: { namespace_id: "1003", simple: { limit: 400, period: 60 } } },
            },
          })),
        ],
        // Queued jobs arrive a moment later (tests wait for them): a busy machine gets time, never a timed assertion.
        test: {
          name: "workers",
          include: ["tests/workers/**/*.test.ts"],
          setupFiles: ["./tests/workers/apply-migrations.ts", "./tests/workers/log-sink.ts"],
          // A limit for a hung test, sized for a machine three times slower than a quiet one.
          testTimeout: 90_000,
        },
      },
      {
        extends: true,
        test: { name: "dom", include: ["tests/dom/**/*.test.tsx"], environment: "happy-dom", setupFiles: ["./tests/dom/setup.ts"] },
      },
      {
        extends: true,
        test: { name: "unit", include: ["tests/unit/**/*.test.ts"], environment: "node" },
      },
    ],
  },
});
