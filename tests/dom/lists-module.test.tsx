import { describe, expect, it, vi } from "vitest";

// The lists module (app/enhance/lists.ts, decision 0046): as the page links come into view, the next
// page's items are read from its HTML and appended once each, with the CSS that page carried.

const NEXT_PAGE = `<html><head><style id="critical-css">.shown-on-two{color:red}</style></head><body>
<ul data-paged><li><a href="/retrieval/detail?id=1">One</a></li><li class="shown-on-two"><a href="/retrieval/detail?id=2">Two</a></li></ul>
<div data-load-more="Loading more"><a data-testid="next-page" href="/discovery?page=3">Next</a></div></body></html>`;

describe("a paged list with JavaScript", () => {
  it("appends the next page's new items and its CSS, and links on to the page after", async () => {
    document.head.innerHTML = '<style id="critical-css">.one{}</style>';
    document.body.innerHTML = `<ul data-paged><li><a href="/retrieval/detail?id=1">One</a></li></ul>
      <div data-load-more="Loading more"><a data-testid="next-page" href="/discovery?page=2">Next</a></div>`;
    let seen: (entries: { isIntersecting: boolean }[], observer: unknown) => void = () => {};
    const observer = { observe: vi.fn(), unobserve: vi.fn(), disconnect: vi.fn() };
    vi.stubGlobal(
      "IntersectionObserver",
      class {
        constructor(callback: typeof seen) {
          seen = callback;
          Object.assign(this, observer);
        }
      },
    );
    const fetched = vi.fn(async (_url: string) => new Response(NEXT_PAGE, { headers: { "Content-Type": "text/html" } }));
    vi.stubGlobal("fetch", fetched);
    await import("~/enhance/lists");

    seen([{ isIntersecting: true }], observer);
    const items = () => [...document.querySelectorAll("[data-paged] > li")].map((item) => item.textContent);
    await vi.waitFor(() => expect(items()).toEqual(["One", "Two"]));
    expect(String(fetched.mock.calls[0]?.[0])).toContain("/discovery?page=2");
    expect([...document.querySelectorAll("style")].map((style) => style.textContent)).toEqual([".one{}", ".shown-on-two{color:red}"]);
    expect(document.querySelector<HTMLAnchorElement>("[data-testid=next-page]")?.getAttribute("href")).toBe("/discovery?page=3");
    // Looked for again: a page still in view asks for the one after it.
    expect(observer.observe).toHaveBeenCalledTimes(2);
    vi.unstubAllGlobals();
  });
});
