import { env as raw } from "cloudflare:workers";
import { statsDb, textShards } from "~/.server/databases";
import { describeError, logEvent } from "~/.server/observability/log";
import { CAPACITY_WARN_SHARE, DATABASE_LIMIT_MB } from "~/lib/limits";

// How full each database is (docs/decisions/0045-databases.md, docs/operations.md "Databases and
// capacity"): measured by the cron's cleanup job and kept in the core's `database_sizes`, where new
// items read which text shards are still open (NEW_ITEM_SHARD); one warning a run for each database
// at or past CAPACITY_WARN_SHARE of D1's limit, long before a shard closes or a database fills.

export const DATABASE_LIMIT_BYTES = DATABASE_LIMIT_MB * 1024 * 1024;

export interface DatabaseSize {
  /** The binding's name: "DB", "STATS_DB", "TEXT_2". */
  name: string;
  bytes: number;
}

/**
 * Every bound database's size, recorded and warned about. `limitBytes` is D1's limit; a test passes
 * a smaller one to meet the warning with the real size of a small database.
 */
export async function measureCapacity(now: number, limitBytes = DATABASE_LIMIT_BYTES): Promise<DatabaseSize[]> {
  // The core through its raw binding: a request's session (bindings.ts) is beside the point here.
  const databases: [string, D1Database][] = [
    ["DB", raw.DB],
    ["STATS_DB", statsDb()],
    ...textShards().map(({ n, db }) => [`TEXT_${n}`, db] as [string, D1Database]),
  ];
  // Any statement's `size_after` is its database's size in bytes: the cheapest one.
  const measured = await Promise.allSettled(databases.map(async ([, db]) => (await db.prepare("SELECT 1").run()).meta.size_after));
  const sizes: DatabaseSize[] = [];
  measured.forEach((result, i) => {
    const name = databases[i]?.[0] ?? "";
    // One unreachable database leaves its last record as it was; the others are still measured.
    if (result.status === "rejected")
      logEvent("error", "database.capacity-unmeasured", { database: name, ...describeError(result.reason) });
    else sizes.push({ name, bytes: result.value });
  });
  if (sizes.length > 0) {
    await raw.DB.batch(
      sizes.map(({ name, bytes }) =>
        raw.DB.prepare(
          "INSERT INTO database_sizes (name, bytes, measured_at) VALUES (?1, ?2, ?3) ON CONFLICT (name) DO UPDATE SET bytes = ?2, measured_at = ?3",
        ).bind(name, bytes, now),
      ),
    );
  }
  for (const { name, bytes } of sizes) {
    const share = bytes / limitBytes;
    if (share >= CAPACITY_WARN_SHARE) {
      logEvent("warn", "database.capacity", { database: name, bytes, limitBytes, share: Math.round(share * 1000) / 1000 });
    }
  }
  return sizes;
}
