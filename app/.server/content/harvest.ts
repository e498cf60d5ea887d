import { env } from "~/.server/bindings";
import { config } from "~/.server/config/config";
import { type ContentItem, contentWhere } from "./content";
import { type Funding, fundingOfItems } from "./funding";
import { authorTexts, type ItemText } from "./item-texts";
import { OPEN_RECORD } from "./open-records";

// What harvesters read through OAI-PMH (decision 0049): every open record, and every record that was
// open once and is no more (deleted, hidden, made private or closed by its owner), kept for good.

/** A record as a harvester sees it: its item while it is open, null once it is deleted. */
export interface Harvested {
  id: number;
  /** When it last changed (ms): the item's last edit, or when it stopped being open. */
  stamp: number;
  sdg: number | null;
  kind: ContentItem["kind"] | null;
  item: ContentItem | null;
  /** Its title and abstract in other languages, as its owner wrote them (decision 0050). */
  texts: ItemText[];
  /** Who funded it (decision 0052). */
  funding: Funding[];
}

/** Which records a harvest asks for: after an id (the resumption point), changed within [from, until), in a set. */
export interface HarvestQuery {
  after: number;
  from: number | null;
  until: number | null;
  set: { sdg: number } | { kind: ContentItem["kind"] } | null;
}

/** The query's conditions on a table whose id, time, goal and kind are `columns`, with their values. */
function filters(query: HarvestQuery, columns: { id: string; stamp: string; sdg: string; kind: string }) {
  const set = query.set;
  const conditions: [string, unknown][] = [
    [`${columns.id} > ?`, query.after],
    ...(query.from === null ? [] : [[`${columns.stamp} >= ?`, query.from] as [string, unknown]]),
    ...(query.until === null ? [] : [[`${columns.stamp} < ?`, query.until] as [string, unknown]]),
    ...(set && "sdg" in set ? [[`${columns.sdg} = ?`, set.sdg] as [string, unknown]] : []),
    ...(set && "kind" in set ? [[`${columns.kind} = ?`, set.kind] as [string, unknown]] : []),
  ];
  return { where: conditions.map(([condition]) => condition).join(" AND "), values: conditions.map(([, value]) => value) };
}

/**
 * The next `size` records of a harvest, in the order of their ids (so a resumption point stays valid
 * whatever is added or changed meanwhile), and whether more follow.
 */
export async function harvest(query: HarvestQuery, size: number): Promise<{ records: Harvested[]; more: boolean }> {
  if (!config().openRecords) return { records: [], more: false };
  const open = filters(query, { id: "c.id", stamp: "c.updated_at", sdg: "c.sdg", kind: "c.kind" });
  const closed = filters(query, { id: "content_id", stamp: "closed_at", sdg: "sdg", kind: "kind" });
  const [items, { results: gone }] = await Promise.all([
    contentWhere(`${OPEN_RECORD("c.")} AND ${open.where} ORDER BY c.id LIMIT ?`, ...open.values, size + 1),
    env.DB.prepare(
      `SELECT content_id AS id, closed_at AS stamp, sdg, kind FROM closed_records WHERE ${closed.where} ORDER BY content_id LIMIT ?`,
    )
      .bind(...closed.values, size + 1)
      .all<Omit<Harvested, "item" | "texts" | "funding">>(),
  ]);
  const [texts, funding] = await Promise.all([authorTexts(items.map((item) => item.id)), fundingOfItems(items.map((item) => item.id))]);
  const records = [
    ...items.map((item) => ({
      id: item.id,
      stamp: item.updated_at,
      sdg: item.sdg,
      kind: item.kind,
      item,
      texts: texts.get(item.id) ?? [],
      funding: funding.get(item.id) ?? [],
    })),
    ...gone.map((record) => ({ ...record, item: null, texts: [], funding: [] })),
  ].sort((a, b) => a.id - b.id);
  return { records: records.slice(0, size), more: records.length > size };
}

/** One record by its item's id, open or deleted; null when it never was open. */
export async function harvested(id: number): Promise<Harvested | null> {
  const { records } = await harvest({ after: id - 1, from: null, until: null, set: null }, 1);
  return records[0]?.id === id ? records[0] : null;
}

/** The earliest time any record changed (a harvester's lower bound), or null with none. */
export async function earliestStamp(): Promise<number | null> {
  return env.DB.prepare(
    `SELECT min(stamp) AS stamp FROM (SELECT min(updated_at) AS stamp FROM content WHERE ${OPEN_RECORD("")}
       UNION ALL SELECT min(closed_at) FROM closed_records)`,
  ).first<number | null>("stamp");
}
