import { env as raw } from "cloudflare:workers";
import { config } from "~/.server/config/config";
import { counted } from "~/.server/db-session";
import { DATABASE_LIMIT_MB, TEXT_SHARD_CLOSED_SHARE } from "~/lib/limits";

// The databases past the core (docs/decisions/0045-databases.md): the statistics' own, and the text
// shards that hold documents' text and captions' cues. An item's text and cues live in the shard its
// `content.text_shard` names, chosen when the item is made; a new shard takes new items only, so
// nothing stored ever moves.

export interface TextShard {
  n: number;
  db: D1Database;
}

const bound = raw as unknown as Record<string, D1Database | undefined>;

/** Text shard `n`: an item names one that is no longer bound only by an operator's mistake, said loudly. */
export function textShard(n: number): D1Database {
  const db = bound[`TEXT_${n}`];
  if (!db) throw new Error(`text shard TEXT_${n} is not bound: an item's text lives there (docs/operations.md, "Adding a text shard")`);
  return counted(db);
}

/** Every text shard bound, in order. */
export const textShards = (): TextShard[] => config().textShards.map((n) => ({ n, db: textShard(n) }));

/** The statistics database. */
export const statsDb = (): D1Database => counted(raw.STATS_DB);

/**
 * The SQL for a new item's shard (one value, for the INSERT that makes it, so choosing costs no round
 * trip): any bound shard the cron has not measured past TEXT_SHARD_CLOSED_SHARE of D1's limit, at
 * random, which spreads the writes; the newest when all are that full (the cron warns long before).
 * Binds: ?<shards> the bound shard numbers as JSON, ?<bytes> the closing size.
 */
export const NEW_ITEM_SHARD = (shards: number, bytes: number) => `coalesce(
    (SELECT j.value FROM json_each(?${shards}) j
      WHERE NOT EXISTS (SELECT 1 FROM database_sizes s WHERE s.name = 'TEXT_' || j.value AND s.bytes >= ?${bytes})
      ORDER BY random() LIMIT 1),
    (SELECT max(j.value) FROM json_each(?${shards}) j))`;

/** The values NEW_ITEM_SHARD binds. */
export const newItemShardBinds = () =>
  [JSON.stringify(config().textShards), Math.floor(DATABASE_LIMIT_MB * 1024 * 1024 * TEXT_SHARD_CLOSED_SHARE)] as const;
