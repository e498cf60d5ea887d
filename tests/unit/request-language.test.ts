import { describe, expect, it } from "vitest";
import { languageOf } from "~/.server/web/i18n/request-language";

const asking = (acceptLanguage: string, cookie?: string) =>
  languageOf(new Request("https://app.test/", { headers: { "Accept-Language": acceptLanguage, ...(cookie ? { Cookie: cookie } : {}) } }));

describe("the language of an answer given before the pages' middleware", () => {
  it("follows Accept-Language by preference weight, not by order", () => {
    expect(asking("en;q=0.2, ja;q=0.9")).toBe("ja");
    expect(asking("fr, zh-CN;q=0.8, en;q=0.5")).toBe("zh");
    expect(asking("ja-JP, en;q=0.9")).toBe("ja");
  });

  it("never picks a language the browser refuses (q=0), and falls back to English", () => {
    expect(asking("ja;q=0, zh;q=0.1")).toBe("zh");
    expect(asking("ja;q=0")).toBe("en");
    expect(asking("fr-FR, de;q=0.5")).toBe("en");
    expect(asking("")).toBe("en");
  });

  it("lets the member's own choice win", () => {
    expect(asking("ja", "language=zh")).toBe("zh");
  });
});
