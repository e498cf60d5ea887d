import { env } from "cloudflare:workers";
import { afterEach, describe, expect, it } from "vitest";
import { createContent } from "~/.server/content/content";
import { DATABASE_LIMIT_BYTES, measureCapacity } from "~/.server/cron/capacity";
import { CAPACITY_WARN_SHARE, TEXT_SHARD_CLOSED_SHARE } from "~/lib/limits";
import { contentFieldsSchema } from "~/lib/schemas/content";
import { newMember } from "./helpers";
import { logged } from "./log-sink";

// Each database's size, measured for real in workerd by the cron's cleanup job (decision 0045): the
// record new items read to leave a nearly full text shard, and the warning an operator reads.

const NOW = Date.UTC(2026, 11, 2, 9);
const bound = env as unknown as Record<string, unknown>;
const shards = Object.keys(bound)
  .filter((name) => /^TEXT_\d+$/.test(name))
  .sort((a, b) => Number(a.slice(5)) - Number(b.slice(5)));

const recorded = async () =>
  (
    await env.DB.prepare("SELECT name, bytes, measured_at FROM database_sizes ORDER BY name").all<{
      name: string;
      bytes: number;
      measured_at: number;
    }>()
  ).results;

/** A new item through the service every upload goes through; the shard it was given. */
async function newItemShard(owner: number) {
  const fields = contentFieldsSchema.parse({
    kind: "video",
    sdg: "6",
    title: "Shard",
    summary: "s",
    content: "c",
    keywords: "k",
    publicize: "1",
  });
  const key = `capacity-${crypto.randomUUID()}`;
  const made = await createContent(
    owner,
    fields,
    { key, size: 10, type: "video/mp4" },
    { key: `${key}-t`, size: 10, type: "image/png" },
    NOW,
  );
  if (!made) throw new Error("no item");
  return Number(await env.DB.prepare("SELECT text_shard FROM content WHERE id = ?").bind(made.id).first("text_shard"));
}

// The records as a real measurement leaves them: this file shares its storage with others.
afterEach(() => measureCapacity(NOW));

describe("the databases' capacity", () => {
  it("records every bound database's size, measured", async () => {
    expect(shards.length).toBeGreaterThanOrEqual(2);
    const sizes = await measureCapacity(NOW);
    const names = ["DB", "STATS_DB", ...shards];
    expect(sizes.map((s) => s.name).sort()).toEqual(names.sort());
    const rows = await recorded();
    for (const name of names) {
      const row = rows.find((r) => r.name === name);
      expect(row, name).toMatchObject({ measured_at: NOW });
      // At least the pages of its migrated tables.
      expect(row?.bytes, name).toBeGreaterThan(4096);
      expect(row?.bytes).toBe(sizes.find((s) => s.name === name)?.bytes);
    }
  });

  it(`warns for each database at ${CAPACITY_WARN_SHARE * 100} % of the limit, by its real size`, async () => {
    const before = (await measureCapacity(NOW)).sort((a, b) => a.bytes - b.bytes);
    const smallest = before[0];
    const largest = before.at(-1);
    if (!smallest || !largest || smallest.bytes === largest.bytes) throw new Error("the databases' sizes do not differ");
    // A limit that puts the largest database past 70 % (with room for it to grow meanwhile) and the smallest below.
    const limit = Math.floor(largest.bytes / (CAPACITY_WARN_SHARE + 0.05));
    expect(smallest.bytes / limit).toBeLessThan(CAPACITY_WARN_SHARE);
    const from = logged("database.capacity").length;
    const sizes = await measureCapacity(NOW, limit);
    const warned = logged("database.capacity").slice(from);
    const expected = sizes.filter((s) => s.bytes / limit >= CAPACITY_WARN_SHARE).map((s) => s.name);
    expect(expected).toContain(largest.name);
    expect(warned.map((line) => line.database).sort()).toEqual(expected.sort());
    expect(warned.map((line) => line.level)).toEqual(expected.map(() => "warn"));
    expect(warned.find((line) => line.database === largest.name)).toMatchObject({ limitBytes: limit });
    // D1's own limit: nothing here is near it.
    const quiet = logged("database.capacity").length;
    await measureCapacity(NOW);
    expect(logged("database.capacity").length).toBe(quiet);
  });

  it(`gives new items no shard recorded at ${TEXT_SHARD_CLOSED_SHARE * 100} % or more; the newest when every one is`, async () => {
    const owner = await newMember("Shard filler");
    const [full, open, ...rest] = shards.slice().reverse();
    if (!full || !open) throw new Error("two shards are needed");
    const record = (name: string, share: number) =>
      env.DB.prepare("UPDATE database_sizes SET bytes = ? WHERE name = ?")
        .bind(Math.floor(DATABASE_LIMIT_BYTES * share), name)
        .run();
    await measureCapacity(NOW);
    // Every shard but one past the closing share: each new item goes to the open one.
    for (const name of [full, ...rest]) await record(name, 0.85);
    const given = new Set<number>();
    for (let i = 0; i < 12; i++) given.add(await newItemShard(owner));
    expect([...given]).toEqual([Number(open.slice("TEXT_".length))]);
    // All closed: the newest shard (the cron's warning came long before).
    await record(open, 0.85);
    expect(await newItemShard(owner)).toBe(Number(full.slice("TEXT_".length)));
    // Measured again, they open: the record is the cron's, nothing else closes a shard.
    await measureCapacity(NOW);
    const reopened = new Set<number>();
    for (let i = 0; i < 40 && reopened.size < 2; i++) reopened.add(await newItemShard(owner));
    expect(reopened.size).toBe(2);
  });
});
