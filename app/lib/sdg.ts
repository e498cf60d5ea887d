/** The 17 Sustainable Development Goals with their official colours; names are in locales (sdg.goalN). */
export const SDG_COLOURS = [
  "#E5243B",
  "#DDA63A",
  "#4C9F38",
  "#C5192D",
  "#FF3A21",
  "#26BDE2",
  "#FCC30B",
  "#A21942",
  "#FD6925",
  "#DD1367",
  "#FD9D24",
  "#BF8B2E",
  "#3F7E44",
  "#0A97D9",
  "#56C02B",
  "#00689D",
  "#19486A",
] as const;

/**
 * Label text on each goal's colour: white where it reads at 4.5:1 (WCAG AA), else near-black
 * (docs/decisions/0024-contrast.md). The goals' colours stay as the UN publishes them.
 */
const DARK_TEXT = new Set([2, 3, 5, 6, 7, 9, 11, 12, 14, 15]);

/** A goal label's colours. */
export const sdgStyle = (n: number) => ({ backgroundColor: SDG_COLOURS[n - 1], color: DARK_TEXT.has(n) ? "#111827" : "#ffffff" });

export const SDG_NUMBERS = SDG_COLOURS.map((_, i) => i + 1);

export const sdgKey = (n: number) => `sdg.goal${n}` as `sdg.goal${1 | 2 | 3}`;
