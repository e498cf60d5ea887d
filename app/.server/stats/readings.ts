import { isbot } from "isbot";
import { env } from "~/.server/bindings";
import { localDay } from "~/lib/time-zone";

// Readings for the statistics (docs/decisions/0039-statistics.md): a page or file answer sends one
// small event to the stats queue after its answer; nothing is written to D1 on the request's path.

export const READING_KINDS = ["view", "download", "export"] as const;
export type ReadingKind = (typeof READING_KINDS)[number];

/** One reading, as queued: the id makes a redelivery count once. */
export interface Reading {
  id: string;
  kind: ReadingKind;
  content: number;
  member: number;
  /** The reader's account type (1 researcher, 2 investor or supporter): readers are split by it, never named. */
  type: 1 | 2;
  /** The owner's day (YYYY-MM-DD on the owner's clocks) when it happened. */
  day: string;
  at: number;
}

interface ReadItem {
  id: number;
  owner_id: number;
  owner_zone: string;
}

interface Reader {
  id: number;
  account_type: 1 | 2;
}

/**
 * The reading to count, or null when it does not count: the owner's own, or a robot's (isbot's
 * maintained list on the request's User-Agent; a request without one is not a browser's).
 */
export function readingOf(kind: ReadingKind, item: ReadItem, reader: Reader, agent: string | null, now: number): Reading | null {
  if (reader.id === item.owner_id) return null;
  if (!agent || isbot(agent)) return null;
  return {
    id: crypto.randomUUID(),
    kind,
    content: item.id,
    member: reader.id,
    type: reader.account_type,
    day: localDay(now, item.owner_zone),
    at: now,
  };
}

/** What a file's request asked and got, as a download's reading needs it. */
export interface Served {
  agent: string | null;
  /** The Range asked for, if any. */
  range: string | null;
  status: number;
}

/**
 * A file answer's download: the first response of a reading (the whole file, or a range from its
 * first byte); the rest of its ranges are not sent, and the fold counts one a day anyway.
 */
export function downloadOf(item: ReadItem, reader: Reader, { agent, range, status }: Served, now: number): Reading | null {
  const first = status === 200 || (status === 206 && /^bytes=0-/.test(range ?? ""));
  return first ? readingOf("download", item, reader, agent, now) : null;
}

/** Queues a reading after the answer; a queue that fails is logged, and the answer stands. */
export function countReading(reading: Reading | null, later: (work: Promise<unknown>) => void) {
  if (!reading) return;
  later(env.STATS.send(reading, { contentType: "json" }).catch((error) => console.error("queuing a reading", error)));
}
