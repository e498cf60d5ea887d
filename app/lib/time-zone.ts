// Times in IANA zones with the platform's own Intl (no library): a meeting is stored in UTC and
// shown in whichever zone the reader lives in.

/** Every IANA zone the runtime knows, UTC included. */
export function timeZones(): string[] {
  const zones = Intl.supportedValuesOf("timeZone");
  return zones.includes("UTC") ? zones : ["UTC", ...zones];
}

/** A zone's region as IANA names it ("Asia" for Asia/Tokyo); "" for UTC and the zones without one. */
export const regionOf = (zone: string) => (zone.includes("/") ? zone.slice(0, zone.indexOf("/")) : "");

/** The zone select's choice of another region (`region:Asia`): the form comes back with that region's zones. */
export const REGION_CHOICE = "region:";

/**
 * What a zone select lists in the page (decision 0047): UTC, the zones of the chosen zone's region,
 * and every other region as a choice. The whole list was 4.5 KB gzip of the schedule form; the
 * meetings module puts it back in the browser, where it costs nothing to send.
 */
export function zoneChoices(chosen: string) {
  const region = chosenRegion(chosen) ?? regionOf(chosen);
  const zones = timeZones();
  return {
    zones: zones.filter((zone) => regionOf(zone) === "" || regionOf(zone) === region),
    regions: [...new Set(zones.map(regionOf))].filter((other) => other && other !== region),
  };
}

/** A zone as a select shows it ("America/New York"). */
export const zoneLabel = (zone: string) => zone.replaceAll("_", " ");

/** The region a select's `region:…` choice names, if it names one the runtime knows. */
export function chosenRegion(choice: string): string | null {
  const region = choice.startsWith(REGION_CHOICE) ? choice.slice(REGION_CHOICE.length) : null;
  return region && timeZones().some((zone) => regionOf(zone) === region) ? region : null;
}

/**
 * A zone this runtime knows, spelled as its list spells it (aliases and other spellings would not
 * match calendars' names). Browsers' lists differ a little: the server's judgement is the one kept.
 */
export function isTimeZone(zone: string): boolean {
  return timeZones().includes(zone);
}

// One formatter per zone: making one costs far more than using it (statistics ask thousands of times).
const clocks = new Map<string, Intl.DateTimeFormat>();
const clockOf = (zone: string) => {
  let clock = clocks.get(zone);
  if (!clock) {
    clock = new Intl.DateTimeFormat("en", {
      timeZone: zone,
      hourCycle: "h23",
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      hour: "2-digit",
      minute: "2-digit",
      second: "2-digit",
    });
    clocks.set(zone, clock);
  }
  return clock;
};

/** The zone's offset from UTC at `instant`, in milliseconds. */
export function offsetAt(instant: number, zone: string): number {
  const parts = clockOf(zone).formatToParts(instant);
  const part = (type: string) => Number(parts.find((p) => p.type === type)?.value);
  const asUtc = Date.UTC(part("year"), part("month") - 1, part("day"), part("hour"), part("minute"), part("second"));
  return asUtc - Math.floor(instant / 1000) * 1000;
}

const DAY = 86_400_000;

/**
 * "2026-12-01T09:30" on the clocks of `zone`, as a UTC instant. A time that happens twice (clocks
 * turned back) is its first occurrence; a time that never happens (clocks turned forward) is read with
 * the offset before the change, as calendar programs do.
 */
export function zonedToUtc(local: string, zone: string): number | null {
  const match = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})$/.exec(local);
  if (!match) return null;
  const [, y, mo, d, h, mi] = match.map(Number) as number[];
  const wall = Date.UTC(y ?? 0, (mo ?? 1) - 1, d ?? 1, h ?? 0, mi ?? 0);
  if (Number.isNaN(wall)) return null;
  // Offsets change at most once a day: the zone's offset a day before and a day after are the only candidates.
  const before = wall - offsetAt(wall - DAY, zone);
  const after = wall - offsetAt(wall + DAY, zone);
  const real = [before, after].filter((instant) => utcToZoned(instant, zone) === local);
  return real.length > 0 ? Math.min(...real) : before;
}

/** The instant as "YYYY-MM-DDTHH:mm" on the clocks of `zone` (a datetime-local input's value). */
export function utcToZoned(instant: number, zone: string): string {
  const shifted = new Date(instant + offsetAt(instant, zone));
  return shifted.toISOString().slice(0, 16);
}

/** The instant's date ("YYYY-MM-DD") on the clocks of `zone`; UTC's for a zone this runtime does not know. */
export function localDay(instant: number, zone: string): string {
  try {
    return utcToZoned(instant, zone).slice(0, 10);
  } catch {
    return new Date(instant).toISOString().slice(0, 10);
  }
}

/** The instant on the clocks of `zone`, in `language`, with the zone's name (Intl allows no dateStyle with a zone name). */
export function formatInZone(instant: number, zone: string, language: string, length: "short" | "long" = "short"): string {
  return new Intl.DateTimeFormat(language, {
    ...(length === "long" ? { weekday: "long", month: "long" } : { month: "short" }),
    year: "numeric",
    day: "numeric",
    hour: "2-digit",
    minute: "2-digit",
    timeZone: zone,
    timeZoneName: length === "long" ? "long" : "short",
  }).format(instant);
}

const UNITS: [Intl.RelativeTimeFormatUnit, number][] = [
  ["day", 86_400_000],
  ["hour", 3_600_000],
  ["minute", 60_000],
];

/** "in 5 minutes", "2 hours ago", "tomorrow" within a week of `now`; null further away (the date says it). */
export function relativeToNow(instant: number, now: number, language: string): string | null {
  const diff = instant - now;
  if (Math.abs(diff) >= 7 * 86_400_000) return null;
  const [unit, size] = UNITS.find(([, ms]) => Math.abs(diff) >= ms) ?? ["minute", 60_000];
  return new Intl.RelativeTimeFormat(language, { numeric: "auto" }).format(Math.round(diff / size), unit);
}
