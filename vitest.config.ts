import { cloudflareTest, readD1Migrations } from "@cloudflare/vitest-plugin";
import { defineConfig, type TestProjectInlineConfiguration } from "vitest/config";
import { MIGRATION_DIRS } from "./scripts/databases.mjs";
import { startFakeOrcid } from "./scripts/fake-orcid.mjs";

// Layers (docs/testing.md): services and pages against real D1/R2/Durable Objects in workerd,
// components in happy-dom, and plain logic in Node. Browser tests are Playwright's (tests/e2e).

/**
 * Workers-pool files that read or change the whole database or bucket (feeds and rankings over every
 * item or member, the cron's cleanup, score runs, "nothing left in R2" after a refused upload), and
 * the files that load @cfworker/json-schema: the API's, the annotations' and the ROR records' (its base URI is
 * read from the global `location` when its module loads, which another file's modules can leave behind in a
 * shared isolate): each gets an
 * isolate and storage of its own. Every other file makes its own members and items and shares storage and
 * an isolate with the rest, which spares it its own migrations and module loading (about 3 s a file).
 */
const OWN_STORAGE = [
  "annotations",
  "api-contents",
  "api-conversations",
  "api-fuzz.property",
  "api-meetings",
  "api-members",
  "api-notifications",
  "api-router",
  "api-settings",
  "api-social",
  "api-stats",
  "api-users",
  "api-verification",
  "bindings",
  "capacity",
  "chunked",
  "cleanup",
  "cross-database",
  "digests",
  "document-text",
  "feed",
  "jobs",
  "members",
  "oai",
  "ranking",
  "score-runs",
  "search",
  "search-organisations",
  "sitemaps",
  "uploads",
  "verification",
  "pages/content",
].map((name) => `tests/workers/${name}.test.ts`);

// The stand-in ORCID and DOI resolver (scripts/fake-orcid.mjs) on loopback, as `npm start` runs it:
// the worker reaches it over the network, as it would reach ORCID.
const fakeOrcid = await startFakeOrcid();
fakeOrcid.server.unref();

const workersPool = (name: string, isolate: boolean, files: { include: string[]; exclude?: string[] }): TestProjectInlineConfiguration => ({
  extends: true,
  plugins: [
    cloudflareTest(async () => ({
      main: "./tests/workers/worker.ts",
      wrangler: { configPath: "./wrangler.toml" },
      miniflare: {
        bindings: {
          // Each kind of database's migrations (scripts/databases.mjs), applied by tests/workers/apply-migrations.ts.
          TEST_MIGRATIONS: Object.fromEntries(
            await Promise.all(Object.entries(MIGRATION_DIRS).map(async ([kind, dir]) => [kind, await readD1Migrations(dir)])),
          ),
          ...fakeOrcid.vars,
          // Automatic captions on, answered by the stand-in model below (decision 0043).
          SPEECH_TO_TEXT_MODEL: "@cf/openai/whisper-large-v3-turbo",
          // Machine suggestions of translations on, answered by the same stand-in (decision 0050).
          TRANSLATION_MODEL: "@cf/meta/m2m100-1.2b",
          // Open records allowed (decision 0049), so their pages can be proved; the browser suites keep the default, off.
          OPEN_RECORDS: "on",
          // Three records an OAI-PMH answer, so a few records prove its resumption tokens.
          OAI_LIST_SIZE: "3",
        },
        serviceBindings: { AI: { name: "fake-speech-to-text", entrypoint: "FakeWhisper" } },
        workers: [
          {
            name: "fake-speech-to-text",
            modules: true,
            scriptPath: "./scripts/fake-speech-to-text.mjs",
            compatibilityDate: "2026-10-01",
            compatibilityFlags: ["nodejs_compat"],
          },
        ],
        // The API's per-member limit, low enough that a test reaches it (wrangler.toml's local one is for the browser suites).
        ratelimits: { API_LIMITER: { namespace_id: "1003", simple: { limit: 400, period: 60 } } },
        // Both consumers as wrangler.toml has them, but readings folded after 1 s instead of 10 (tests wait on them).
        queueConsumers: {
          "research-commons-jobs": { maxBatchSize: 1, maxBatchTimeout: 1, maxRetries: 5, deadLetterQueue: "research-commons-jobs-failed" },
          "research-commons-stats": {
            maxBatchSize: 100,
            maxBatchTimeout: 1,
            maxRetries: 10,
            deadLetterQueue: "research-commons-stats-failed",
          },
        },
      },
    })),
  ],
  // Queued jobs arrive a moment later (tests wait for them): a busy machine gets time, never a timed assertion.
  test: {
    name,
    isolate,
    ...files,
    setupFiles: ["./tests/workers/apply-migrations.ts", "./tests/workers/log-sink.ts", "./tests/workers/settle-alarms.ts"],
  },
});

export default defineConfig({
  resolve: { tsconfigPaths: true },
  define: { __LOCAL_BUILD__: "true", __BUILD_ID__: JSON.stringify("test"), __PDFJS_URL__: JSON.stringify("/assets/pdfjs-test.mjs") },
  test: {
    // Two at a time on two cores: much of a workers-pool file's time is spent waiting on workerd.
    maxWorkers: 2,
    // A limit for a hung test in every layer, sized for a machine three times slower than a quiet
    // one (actionlint alone took over 5 s, the default, with the machine busy).
    testTimeout: 90_000,
    projects: [
      workersPool("workers", false, { include: ["tests/workers/**/*.test.ts"], exclude: OWN_STORAGE }),
      workersPool("workers-own-storage", true, { include: OWN_STORAGE }),
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
