import { createExecutionContext, createMessageBatch, getQueueResult } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { deleteAccount } from "~/.server/accounts/delete-account";
import { deleteContent } from "~/.server/content/content";
import { CLEANUP_BATCH } from "~/.server/cron/cleanup";
import { foldReadings } from "~/.server/stats/fold";
import { sweepViews } from "~/.server/stats/item-views";
import type { Reading } from "~/.server/stats/readings";
import { consumeQueue } from "../../workers/queues";
import { newItem, newMember, testCaller, until } from "./helpers";
import { account, PASSWORD } from "./pages/page-helpers";

// The statistics in their own database (issue 46, decision 0045): the fold writes there, then copies
// the count on cards to the core; a fold stopped between the two is made whole by its retry or the
// cron's sweep, exactly once. A deleted item's or account's rows go by their follow-up jobs.

const DAY = "2026-11-25";
const NOON = Date.UTC(2026, 10, 25, 12);

const viewOf = (content: number, member: number, at = NOON): Reading => ({
  id: crypto.randomUUID(),
  kind: "view",
  content,
  member,
  type: 1,
  day: DAY,
  at,
});

/** The core's count on cards and what it last copied. */
const card = (id: number) =>
  env.DB.prepare("SELECT views, views_synced FROM content WHERE id = ?").bind(id).first<{ views: number; views_synced: number }>();

/** Rows about item `id` in each statistics table. */
const itemRows = async (id: number) => {
  const row = await env.STATS_DB.prepare(
    `SELECT (SELECT count(*) FROM stat_days WHERE content_id = ?1) AS days, (SELECT count(*) FROM stat_months WHERE content_id = ?1) AS months,
       (SELECT readers FROM item_views WHERE content_id = ?1) AS readers`,
  )
    .bind(id)
    .first<{ days: number; months: number; readers: number | null }>();
  return row ?? { days: 0, months: 0, readers: null };
};

const ownerDays = (owner: number) =>
  env.STATS_DB.prepare("SELECT coalesce(sum(n), 0) AS n FROM stat_owner_days WHERE owner_id = ?").bind(owner).first<number>("n");

/** Makes the core refuse the copy to the item's card (a fold stopped between its two writes); answers how to recover. */
async function stopCopy(id: number) {
  const name = `stopped_views_${id}`;
  await env.DB.prepare(
    `CREATE TRIGGER ${name} BEFORE UPDATE OF views ON content WHEN OLD.id = ${id} BEGIN SELECT RAISE(ABORT, 'stopped here'); END`,
  ).run();
  return () => env.DB.prepare(`DROP TRIGGER ${name}`).run();
}

/** One delivery of the stats queue's batch: whether it was acknowledged (else retried). */
async function deliver(body: Reading, attempts: number) {
  const batch = createMessageBatch<Reading>("research-commons-stats", [
    { id: `m-${body.id}-${attempts}`, timestamp: new Date(), attempts, body },
  ]);
  await consumeQueue(batch);
  const result = await getQueueResult(batch, createExecutionContext());
  return { acked: result.ackAll, retried: result.retryBatch.retry };
}

describe("a fold stopped between the statistics database and the core", () => {
  it("keeps the readings; the queue's retry copies the count once, however often it is delivered", async () => {
    const owner = await newMember("Owner");
    const id = await newItem(owner);
    const body = viewOf(id, await newMember("Reader"));
    const recover = await stopCopy(id);
    expect(await deliver(body, 1)).toEqual({ acked: false, retried: true });
    // Between the two writes: the statistics hold the reading, the card does not show it yet.
    expect(await itemRows(id)).toEqual({ days: 1, months: 1, readers: 1 });
    expect(await card(id)).toEqual({ views: 0, views_synced: 0 });
    await recover();
    expect(await deliver(body, 2)).toEqual({ acked: true, retried: false });
    expect(await card(id)).toEqual({ views: 1, views_synced: 1 });
    // A redelivery, and the cron's sweep, add nothing.
    expect(await deliver(body, 3)).toEqual({ acked: true, retried: false });
    await sweepViews(Date.now(), CLEANUP_BATCH);
    expect(await card(id)).toEqual({ views: 1, views_synced: 1 });
    expect(await itemRows(id)).toEqual({ days: 1, months: 1, readers: 1 });
  });

  it("left unretried, is copied by the cron's sweep exactly once, and later folds add only theirs", async () => {
    const owner = await newMember("Owner");
    const id = await newItem(owner, { views: 5 });
    const readers = [await newMember("Reader"), await newMember("Reader")];
    const recover = await stopCopy(id);
    await expect(foldReadings(readers.map((reader) => viewOf(id, reader)))).rejects.toThrow(/stopped here/);
    expect((await itemRows(id)).readers).toBe(2);
    expect(await card(id)).toEqual({ views: 5, views_synced: 0 });
    await recover();
    await sweepViews(Date.now(), CLEANUP_BATCH);
    // What the card held stays, with the two readers added once.
    expect(await card(id)).toEqual({ views: 7, views_synced: 2 });
    await sweepViews(Date.now(), CLEANUP_BATCH);
    expect(await card(id)).toEqual({ views: 7, views_synced: 2 });
    await foldReadings([viewOf(id, await newMember("Reader"))]);
    expect(await card(id)).toEqual({ views: 8, views_synced: 3 });
  });

  it("the sweep removes the rows of an item the core no longer has (a fold that read it just before it went)", async () => {
    const owner = await newMember("Owner");
    const id = await newItem(owner);
    await foldReadings([viewOf(id, await newMember("Reader"))]);
    // Gone from the core without its follow-up, as when the fold wrote after the follow-up had run.
    await env.DB.prepare("DELETE FROM content WHERE id = ?").bind(id).run();
    expect((await itemRows(id)).days).toBe(1);
    await sweepViews(Date.now(), CLEANUP_BATCH);
    expect(await itemRows(id)).toEqual({ days: 0, months: 0, readers: null });
    expect(await ownerDays(owner)).toBe(1);
  });

  it("drops a reading of an item deleted before its fold", async () => {
    const owner = await newMember("Owner");
    const id = await newItem(owner);
    await env.DB.prepare("DELETE FROM content WHERE id = ?").bind(id).run();
    await foldReadings([viewOf(id, await newMember("Reader"))]);
    expect(await itemRows(id)).toEqual({ days: 0, months: 0, readers: null });
    expect(await ownerDays(owner)).toBe(0);
  });
});

describe("deleting what statistics are about", () => {
  it("an item: its days, months and count go by its follow-up; its owner's days and other items stay", async () => {
    const owner = await newMember("Owner");
    const [gone, kept] = [await newItem(owner), await newItem(owner)];
    const reader = await newMember("Reader");
    await foldReadings([viewOf(gone, reader), viewOf(kept, reader), { ...viewOf(gone, reader, NOON + 60_000), kind: "download" }]);
    expect(await itemRows(gone)).toEqual({ days: 2, months: 2, readers: 1 });
    expect(await deleteContent(gone, owner)).toBe(true);
    await until(async () => (await itemRows(gone)).days === 0);
    expect(await itemRows(gone)).toEqual({ days: 0, months: 0, readers: null });
    expect(await itemRows(kept)).toEqual({ days: 1, months: 1, readers: 1 });
    // The owner's days are what happened: three readings, two of them on the item gone.
    expect(await ownerDays(owner)).toBe(3);
  });

  it("an account: every statistics row of theirs and the readings they made go; what they read stays counted on others' items", async () => {
    const me = await account();
    const other = await newMember("Other owner");
    const [mine, theirs] = [await newItem(me.id), await newItem(other)];
    await foldReadings([viewOf(mine, other), viewOf(theirs, me.id)]);
    const rowsOf = async () => {
      return env.STATS_DB.prepare(
        `SELECT (SELECT count(*) FROM stat_days WHERE owner_id = ?1) AS days, (SELECT count(*) FROM stat_months WHERE owner_id = ?1) AS months,
           (SELECT count(*) FROM stat_owner_days WHERE owner_id = ?1) AS owner_days, (SELECT count(*) FROM stat_hits WHERE member_id = ?1) AS hits,
           (SELECT count(*) FROM item_views WHERE content_id = ?2) AS views`,
      )
        .bind(me.id, mine)
        .first();
    };
    expect(await rowsOf()).toEqual({ days: 1, months: 1, owner_days: 1, hits: 1, views: 1 });
    await deleteAccount(me.id, PASSWORD, testCaller(Date.now()).caller);
    await until(async () => Object.values((await rowsOf()) ?? {}).every((n) => n === 0));
    expect(await rowsOf()).toEqual({ days: 0, months: 0, owner_days: 0, hits: 0, views: 0 });
    expect(await itemRows(theirs)).toEqual({ days: 1, months: 1, readers: 1 });
    expect(await ownerDays(other)).toBe(1);
  });
});
