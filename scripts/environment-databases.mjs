// The D1 databases each environment binds, as a wrangler config says (the deploy and `npm run capacity`
// read them here): local (the top level), production, and preview (the shared defaults, or the
// databases of its own a preview gets, named for it).
import { databaseBindings, databaseKind } from "./databases.mjs";

/** A config block's databases of ours, the core first, then the statistics, then the text shards in order. */
export function orderedDatabases(list = []) {
  const byBinding = Object.fromEntries(list.map((database) => [database.binding, database]));
  return databaseBindings(byBinding).map((binding) => ({ ...byBinding[binding], kind: databaseKind(binding) }));
}

/** The databases of "local", "production" or "preview" in the config (not validated, so wrangler says nothing). */
export async function configDatabases(environment, config = "wrangler.toml") {
  const { experimental_readRawConfig } = await import("wrangler");
  const { rawConfig } = experimental_readRawConfig({ config });
  const production = rawConfig.env?.production;
  const block = { local: rawConfig, production, preview: production?.previews }[environment];
  if (!block) throw new Error(`no environment "${environment}" (local, production or preview)`);
  return orderedDatabases(block.d1_databases);
}

/** A preview's own database for a binding: research-commons-pr-12, -pr-12-stats, -pr-12-text-1, ... */
export function previewDatabaseName(preview, binding) {
  const kind = databaseKind(binding);
  if (kind === "core") return `research-commons-${preview}`;
  if (kind === "stats") return `research-commons-${preview}-stats`;
  return `research-commons-${preview}-text-${binding.slice("TEXT_".length)}`;
}

/** Whether a database's name is one of this preview's own (whatever shards it was made with). */
export const isPreviewDatabase = (preview, name) => new RegExp(`^research-commons-${preview}(-stats|-text-\\d+)?$`).test(name);
