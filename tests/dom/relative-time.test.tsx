import { render } from "@testing-library/react";
import i18next from "i18next";
import { describe, expect, it } from "vitest";
import { RelativeTime } from "~/components/relative-time";

const now = new Date("2026-11-22T12:00:00Z");
const ago = (seconds: number) => new Date(now.getTime() - seconds * 1000);
const shown = (seconds: number) => render(<RelativeTime date={ago(seconds)} now={now} />).container.textContent;

describe("RelativeTime (spec section 9)", () => {
  it.each([
    ["en", 0, "just now"],
    ["en", 29, "just now"],
    ["en", 30, "1 minute ago"],
    ["en", 61, "2 minutes ago"],
    ["en", 3599, "60 minutes ago"],
    ["en", 3600, "1 hour ago"],
    ["en", 5 * 3600 + 1, "6 hours ago"],
    ["en", 86_400, "1 day ago"],
    ["en", 2 * 86_400 - 1, "1 day ago"],
    ["ja", 10, "たった今"],
    ["ja", 600, "10分前"],
    ["ja", 7200, "2時間前"],
    ["ja", 100_000, "1日前"],
    ["zh", 10, "刚刚"],
    ["zh", 600, "10分钟前"],
    ["zh", 7200, "2小时前"],
    ["zh", 100_000, "1天前"],
  ])("in %s, %i seconds ago reads '%s'", async (lang, seconds, text) => {
    await i18next.changeLanguage(lang);
    expect(shown(seconds)).toBe(text);
  });

  it("shows a calendar date from two days on, in the reader's language", async () => {
    const date = new Date("2026-11-01T08:30:00Z");
    const en = render(<RelativeTime date={date} now={now} />).container.textContent;
    expect(en).toContain("2026");
    expect(en).toContain("Nov");
    await i18next.changeLanguage("zh");
    const zh = render(<RelativeTime date={date} now={now} />).container.textContent;
    expect(zh).toContain("2026年11月1日");
  });
});
