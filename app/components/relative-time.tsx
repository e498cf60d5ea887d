import { useTranslation } from "react-i18next";
import { relativeTime } from "~/lib/relative-time";

/** A date as the spec shows it ('just now', '5 minutes ago', ...), with the exact time on hover. */
export function RelativeTime({ date, now = new Date() }: { date: Date; now?: Date }) {
  const { t, i18n } = useTranslation();
  return (
    <time dateTime={date.toISOString()} title={date.toISOString()} suppressHydrationWarning>
      {relativeTime(date, now, t, i18n.language)}
    </time>
  );
}
