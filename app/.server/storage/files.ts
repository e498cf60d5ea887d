import { env } from "~/.server/bindings";

/** Server-generated object keys: never a member's file name, so no path tricks reach R2. */
export function newFileKey(kind: "files" | "thumbnails", now = new Date()): string {
  const month = now.toISOString().slice(0, 7);
  return `${kind}/${month}/${crypto.randomUUID()}`;
}

/** R2 deletes at most this many keys in one call. */
const R2_DELETE_BATCH = 1000;

/**
 * Records keys to delete, to go in the same batch as the rows that named them (and only while
 * `stillThere`, a query for those rows, finds them): if R2 is not reached afterwards (it fails, the
 * isolate ends), the cron's sweep still deletes them.
 */
export const queueDeletions = (keys: string[], now: number, stillThere = "SELECT 1", ...values: unknown[]) =>
  env.DB.prepare(
    `INSERT OR IGNORE INTO object_deletions (key, queued_at) SELECT value, ? FROM json_each(?) WHERE EXISTS (${stillThere})`,
  ).bind(now, JSON.stringify(keys), ...values);

/** Deletes the objects, then forgets them: what was queued is done. */
export async function deleteQueued(keys: string[]) {
  for (let i = 0; i < keys.length; i += R2_DELETE_BATCH) {
    const batch = keys.slice(i, i + R2_DELETE_BATCH);
    await env.FILES.delete(batch);
    await env.DB.prepare("DELETE FROM object_deletions WHERE key IN (SELECT value FROM json_each(?))").bind(JSON.stringify(batch)).run();
  }
}
