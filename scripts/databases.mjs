// The databases a config binds and each one's migrations folder (docs/decisions/0045-databases.md):
// the core (DB), the statistics (STATS_DB) and the text shards (TEXT_1, TEXT_2, ...).
export const MIGRATION_DIRS = { core: "migrations/core", stats: "migrations/stats", text: "migrations/text" };

/** The kind of database a binding names, or null for one that is not a database of ours. */
export function databaseKind(binding) {
  if (binding === "DB") return "core";
  if (binding === "STATS_DB") return "stats";
  return /^TEXT_\d+$/.test(binding) ? "text" : null;
}

/** The D1 bindings of `env` (an object of bindings by name), the core first. */
export const databaseBindings = (env) =>
  Object.keys(env)
    .filter((name) => databaseKind(name))
    .sort((a, b) => (a === "DB" ? -1 : b === "DB" ? 1 : a.localeCompare(b, "en", { numeric: true })));
