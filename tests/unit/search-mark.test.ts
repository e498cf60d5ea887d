import { describe, expect, it } from "vitest";
import { markTerms, snippetOf } from "~/.server/search/mark";

const shown = (text: string) => text.replace(/\u0001/g, "[").replace(/\u0002/g, "]");

describe("search marks", () => {
  it("marks every occurrence of every word whatever its case, the longer word first", () => {
    expect(shown(markTerms("Water, WATER and waterways", ["water"]))).toBe("[Water], [WATER] and [water]ways");
    expect(shown(markTerms("solar grid", ["grid", "solar grid"]))).toBe("[solar grid]");
    expect(shown(markTerms("安全な飲み水と清洁饮水", ["飲み水", "饮水"]))).toBe("安全な[飲み水]と清洁[饮水]");
    // Words are text, never patterns.
    expect(shown(markTerms("a (b) c.* d", ["(b)", ".*"]))).toBe("a [(b)] c[.*] d");
  });

  it("cuts a snippet around the first match in the first field that has one, never inside a character", () => {
    const long = `${"x".repeat(100)} target ${"y".repeat(100)}`;
    const snippet = shown(snippetOf(["no match here", long], ["target"]));
    expect(snippet.startsWith("…")).toBe(true);
    expect(snippet.endsWith("…")).toBe(true);
    expect(snippet).toContain("[target]");
    const emoji = "😀".repeat(40);
    for (const text of [snippetOf([emoji], ["none"]), snippetOf([`${emoji}hit${emoji}`], ["hit"])]) {
      expect(text.isWellFormed()).toBe(true);
    }
    expect(snippetOf(["short summary", "content"], ["absent"])).toBe("short summary");
  });
});
