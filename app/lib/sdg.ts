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

export const SDG_NUMBERS = SDG_COLOURS.map((_, i) => i + 1);

export const sdgKey = (n: number) => `sdg.goal${n}` as `sdg.goal${1 | 2 | 3}`;
