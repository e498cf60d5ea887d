// A local state folder made ready in one local runtime: the D1 migrations (as `wrangler d1 migrations
// apply --local` records them, so either can run after the other) and the demo data. Wrangler's own
// command starts a runtime per migration file: about 18 s of CPU for 29 files, paid by every e2e
// server, every production-like run and every deploy dry run; this takes about 3 s.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { databaseBindings, databaseKind, MIGRATION_DIRS } from "./databases.mjs";
import { DEMO_CONTENT, DEMO_ITEMS_SQL, demoShardStatements, demoStatements } from "./demo-data.mjs";

/** The folder's databases migrated, each by its kind's folder (and with `demo`, the demo rows and files in them). Harmless when repeated. */
export async function prepareLocalState(stateDir, { demo = true, config = "wrangler.toml", environment } = {}) {
  const { getPlatformProxy } = await import("wrangler");
  const { readD1Migrations } = await import("@cloudflare/vitest-plugin");
  // wrangler's --persist-to folder keeps its bindings' data under v3/.
  const proxy = await withoutClassWarnings(() =>
    getPlatformProxy({ configPath: config, environment, persist: { path: join(stateDir, "v3") } }),
  );
  try {
    const { FILES } = proxy.env;
    for (const binding of databaseBindings(proxy.env)) {
      await applyMigrations(proxy.env[binding], await readD1Migrations(MIGRATION_DIRS[databaseKind(binding)]));
    }
    if (!demo) return;
    const { DB } = proxy.env;
    await DB.batch((await demoStatements()).map((sql) => DB.prepare(sql)));
    const items = (await DB.prepare(DEMO_ITEMS_SQL).all()).results;
    for (const [binding, statements] of Object.entries(demoShardStatements(items))) {
      const db = proxy.env[binding];
      await db.batch(statements.map((sql) => db.prepare(sql)));
    }
    // The count on cards, as the fold copies it from the statistics (content.views_synced).
    const { results: views } = await proxy.env.STATS_DB.prepare("SELECT content_id, readers FROM item_views").all();
    await DB.batch(
      views.map(({ content_id, readers }) =>
        DB.prepare("UPDATE content SET views = views + ?1 - views_synced, views_synced = ?1 WHERE id = ?2 AND views_synced < ?1").bind(
          readers,
          content_id,
        ),
      ),
    );
    // The demo files under the keys the rows point at (put again every time: harmless).
    for (const object of DEMO_CONTENT.flatMap((c) => [c.file, c.thumbnail]))
      await FILES.put(object.key, readFileSync(object.path), { httpMetadata: { contentType: object.type } });
  } finally {
    await proxy.dispose();
  }
}

/** What `applyD1Migrations` of the Workers test pool does: each pending file in one batch with its record. */
async function applyMigrations(db, migrations) {
  await db
    .prepare(
      "CREATE TABLE IF NOT EXISTS d1_migrations (id INTEGER PRIMARY KEY AUTOINCREMENT, name TEXT UNIQUE, applied_at TIMESTAMP DEFAULT CURRENT_TIMESTAMP NOT NULL)",
    )
    .run();
  const applied = new Set((await db.prepare("SELECT name FROM d1_migrations").all()).results.map((row) => row.name));
  for (const { name, queries } of migrations) {
    if (applied.has(name)) continue;
    await db.batch([...queries.map((sql) => db.prepare(sql)), db.prepare("INSERT INTO d1_migrations (name) VALUES (?)").bind(name)]);
  }
}

/**
 * The runtime here serves bindings only, not the worker, so wrangler and workerd warn that the
 * Durable Objects the config names will not work: true, and beside the point; those lines are dropped.
 */
export async function withoutClassWarnings(start) {
  const noise = /internal Durable Objects|DurableObjectNamespace in the config referenced the class/;
  const streams = [process.stdout, process.stderr];
  const writes = streams.map((stream) => stream.write.bind(stream));
  streams.forEach((stream, i) => {
    stream.write = (chunk, ...rest) => (noise.test(String(chunk)) ? true : writes[i](chunk, ...rest));
  });
  try {
    return await start();
  } finally {
    streams.forEach((stream, i) => {
      stream.write = writes[i];
    });
  }
}
