import { describe, expect, it } from "vitest";
import { QUOTE_CONTEXT } from "~/lib/limits";
import { findQuote, quoteAt } from "~/lib/quotes";
import fixtures from "../fixtures/pdf/pages.json";

// Quotes found in pages' text as pdf.js reads it from real PDFs printed by Chromium
// (tests/fixtures/pdf): across line breaks, in English and Japanese, told apart by their context.

const files = fixtures as Record<
  string,
  {
    pages: string[];
    acrossLines: { page: number; exact: string };
    onTwoPages: { exact: string; pages: number[] };
    notOnPage: { page: number; exact: string };
  }
>;

/** The stored quote for words typed as a member would, on that page of the file. */
const typed = (file: string, page: number, words: string) => {
  const text = files[file]?.pages[page - 1] ?? "";
  const found = findQuote(text, words);
  return found && quoteAt(text, found.start, found.end);
};

describe.each(Object.keys(files))("quotes in %s", (file) => {
  const { pages, acrossLines, onTwoPages, notOnPage } = files[file] as (typeof files)[string];

  it("finds a sentence the page breaks across lines, as it was typed, with its context", () => {
    expect(pages[acrossLines.page - 1]).not.toContain(acrossLines.exact);
    const quote = typed(file, acrossLines.page, acrossLines.exact);
    expect(quote?.exact).toBe(acrossLines.exact);
    expect(Array.from(quote?.prefix ?? "").length).toBeLessThanOrEqual(QUOTE_CONTEXT);
    expect(Array.from(quote?.suffix ?? "").length).toBeLessThanOrEqual(QUOTE_CONTEXT);
    // The context is the page's own words on each side.
    const squeezed = (text = "") => text.replace(/\s/g, "");
    expect(squeezed(pages[acrossLines.page - 1])).toContain(squeezed(`${quote?.prefix}${quote?.exact}${quote?.suffix}`));
    expect(quote?.prefix.length).toBeGreaterThan(0);
  });

  it("finds words on the pages that hold them and on no other", () => {
    for (const [n] of pages.entries()) expect(Boolean(typed(file, n + 1, onTwoPages.exact))).toBe(onTwoPages.pages.includes(n + 1));
    expect(typed(file, notOnPage.page, notOnPage.exact)).toBeNull();
  });
});

describe("the same words twice on a page", () => {
  const page = "Alpha said the tank was full.\nLater, Beta said the tank was full again.";

  it("are the place whose surroundings the quote's context matches, else the first", () => {
    expect(findQuote(page, "the tank was full")).toEqual({ start: 11, end: 28 });
    const second = findQuote(page, "the tank was full", "Later, Beta said ", " again.");
    expect(second && page.slice(second.start, second.end)).toBe("the tank was full");
    expect(second?.start).toBe(page.lastIndexOf("the tank"));
    // A context that fits neither place exactly picks the one it fits better.
    expect(findQuote(page, "the tank was full", "", " aga")?.start).toBe(page.lastIndexOf("the tank"));
  });

  it("refuses nothing typed, and words split differently by spaces alone are the same words", () => {
    expect(findQuote(page, "  \n ")).toBeNull();
    expect(findQuote(page, "Beta   said\nthe")).toEqual({ start: page.indexOf("Beta"), end: page.indexOf("Beta said the") + 13 });
  });
});
