import { applyD1Migrations } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { databaseBindings, databaseKind, type MigrationKind } from "../../scripts/databases.mjs";

// Every database the config binds, each with its kind's migrations (the core, the statistics, the text shards).
const bound = env as unknown as Record<string, D1Database>;
for (const binding of databaseBindings(bound)) {
  await applyD1Migrations(bound[binding] as D1Database, env.TEST_MIGRATIONS[databaseKind(binding) as MigrationKind]);
}
