import type { TFunction } from "i18next";

/**
 * The spec's relative time (section 9): 'just now' under 30 seconds, then minutes, then hours,
 * '1 day ago' up to 2 days, and a calendar date after that. Units round up, as the original did.
 */
export function relativeTime(date: Date, now: Date, t: TFunction, locale: string): string {
  const seconds = (now.getTime() - date.getTime()) / 1000;
  if (seconds < 30) return t("time.justNow");
  if (seconds < 3600) return t("time.minutesAgo", { count: Math.ceil(seconds / 60) });
  if (seconds < 86_400) return t("time.hoursAgo", { count: Math.ceil(seconds / 3600) });
  if (seconds < 2 * 86_400) return t("time.oneDayAgo");
  return new Intl.DateTimeFormat(locale, { dateStyle: "medium", timeStyle: "short", timeZone: "UTC" }).format(date);
}
