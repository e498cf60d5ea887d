import { describe, expect, it } from "vitest";
import { linkParts } from "~/lib/link-parts";

describe("links in message text", () => {
  it("links http and https addresses and keeps trailing punctuation as text", () => {
    expect(linkParts("See https://example.org/a?b=1. And http://x.test/p)")).toEqual([
      { text: "See " },
      { text: "https://example.org/a?b=1", href: "https://example.org/a?b=1" },
      { text: ". And " },
      { text: "http://x.test/p", href: "http://x.test/p" },
      { text: ")" },
    ]);
  });

  it("never links other schemes or markup", () => {
    for (const text of ["javascript:alert(1)", "data:text/html,<b>x</b>", '<a href="https://x.test">x</a>', "vbscript:msgbox"]) {
      const parts = linkParts(text);
      expect(parts.filter((p) => p.href && !p.href.startsWith("https://"))).toEqual([]);
      expect(parts.map((p) => p.text).join("")).toBe(text);
    }
  });
});
