import { offsetAt } from "~/lib/time-zone";

// Likes, comments and follows keep their time, not a day: SQL turns the time into the member's day
// with the zone's offsets over the period (they change a few times a year), found here with Intl.

/** How far apart the offset is looked at: zones change theirs months apart, never twice in three days. */
const STEP = 3 * 86_400_000;

/** Where the zone's offset changes in [start, end), each with the offset from there on. */
function offsetsBetween(zone: string, start: number, end: number): { from: number; offset: number }[] {
  const changes = [{ from: start, offset: offsetAt(start, zone) }];
  // A look every STEP finds each change, then halving finds its minute.
  for (let at = start + STEP; at < end + STEP; at += STEP) {
    const last = changes.at(-1) as { from: number; offset: number };
    const offset = offsetAt(Math.min(at, end), zone);
    if (offset === last.offset) continue;
    let [low, high] = [at - STEP, Math.min(at, end)];
    while (high - low > 60_000) {
      const middle = Math.floor((low + high) / 2);
      if (offsetAt(middle, zone) === last.offset) low = middle;
      else high = middle;
    }
    changes.push({ from: high, offset });
  }
  return changes;
}

/** SQL for the day ("YYYY-MM-DD") on the zone's clocks of `column`, a time in ms between start and end. */
export function localDaySql(column: string, zone: string, start: number, end: number): string {
  const [first, ...later] = offsetsBetween(zone, start, end);
  const offset =
    later.length === 0
      ? `${first?.offset ?? 0}`
      : `CASE ${later
          .reverse()
          .map((c) => `WHEN ${column} >= ${c.from} THEN ${c.offset}`)
          .join(" ")} ELSE ${first?.offset ?? 0} END`;
  return `date((${column} + ${offset}) / 1000, 'unixepoch')`;
}
