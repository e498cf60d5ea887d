import { type TextShard, textShards } from "~/.server/databases";
import { describeError, logEvent } from "~/.server/observability/log";
import { SHARD_SEARCH_TIMEOUT_MS } from "~/lib/limits";

// A search asks every text shard at once (docs/decisions/0045-databases.md): a shard that fails or
// is slow is left out of the answer, which then says it is partial, rather than failing the page.

export interface ShardAnswers<T> {
  /** Each answering shard's rows, with its number. */
  rows: (T & { shard: number })[];
  /** True when a shard did not answer in time or failed. */
  partial: boolean;
}

/** `ask` of every shard in parallel, each given SHARD_SEARCH_TIMEOUT_MS. */
export async function askShards<T>(
  what: string,
  ask: (db: D1Database) => Promise<T[]>,
  timeoutMs = SHARD_SEARCH_TIMEOUT_MS,
): Promise<ShardAnswers<T>> {
  const shards = textShards();
  const answers = await Promise.allSettled(shards.map((shard) => withinTime(shard, ask, timeoutMs)));
  const rows: (T & { shard: number })[] = [];
  let partial = false;
  answers.forEach((answer, i) => {
    const n = (shards[i] as TextShard).n;
    if (answer.status === "fulfilled") for (const row of answer.value) rows.push({ ...row, shard: n });
    else {
      partial = true;
      logEvent("error", "search.shard_failed", { shard: n, what, error: describeError(answer.reason) });
    }
  });
  return { rows, partial };
}

async function withinTime<T>(shard: TextShard, ask: (db: D1Database) => Promise<T[]>, timeoutMs: number): Promise<T[]> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`text shard ${shard.n} did not answer within ${timeoutMs} ms`)), timeoutMs);
  });
  try {
    return await Promise.race([ask(shard.db), late]);
  } finally {
    clearTimeout(timer);
  }
}
