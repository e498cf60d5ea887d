import { render, screen } from "@testing-library/react";
import i18next from "i18next";
import { describe, expect, it } from "vitest";
import { TextStateNote } from "~/components/text-state-note";

// What the owner reads once a PDF's text is indexed (after an upload or a new version).

const done = (pages: number) => ({ state: "done" as const, note: null, pages, page_count: pages });

describe("the document text note", () => {
  it("counts a one-page PDF as one page, and more as 'all n pages', in every language", async () => {
    const { rerender } = render(<TextStateNote text={done(1)} />);
    expect(screen.getByTestId("text-state").textContent).toBe("Search finds this document by the text of its one page.");
    rerender(<TextStateNote text={done(2)} />);
    expect(screen.getByTestId("text-state").textContent).toBe("Search finds this document by its text: all 2 pages.");
    await i18next.changeLanguage("ja");
    rerender(<TextStateNote text={done(1)} />);
    expect(screen.getByTestId("text-state").textContent).toBe("この文書は本文でも検索できます（全1ページ）。");
  });
});
