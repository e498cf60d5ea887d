import { readdirSync } from "node:fs";
import i18next, { type TFunction } from "i18next";
import { describe, expect, it } from "vitest";
import { resources } from "#locales/index";
import { LANGUAGES } from "~/lib/i18n";
import { labelFor, liveLabel } from "~/lib/live-label";
import { ENHANCE_MODULES, pageScript } from "~/lib/page-handle";
import { makeTranslate, type Tree } from "~/lib/translate";

// What a page ships (decision 0046), from its routes' handles; and the labels the shell module
// rewrites live, which must read as the server's own words for every count in every language.

describe("the script a page ships", () => {
  it("is the shell alone by default, after the page's own modules, each once", () => {
    expect(pageScript([undefined, {}])).toEqual({ hydrate: false, modules: ["shell"] });
    expect(pageScript([{}, { modules: ["lists"] }, { modules: ["lists", "item"] }])).toEqual({
      hydrate: false,
      modules: ["lists", "item", "shell"],
    });
  });

  it("reads a route's modules by the page's query where one route is several pages", () => {
    const settings = { modules: (query: URLSearchParams) => (query.get("section") === "avatar" ? ["avatar" as const] : []) };
    expect(pageScript([{}, settings], new URLSearchParams("section=avatar")).modules).toEqual(["avatar", "shell"]);
    expect(pageScript([{}, settings], new URLSearchParams("section=account")).modules).toEqual(["shell"]);
    expect(pageScript([{}, settings]).modules).toEqual(["shell"]);
  });

  it("hydrates where a route says so, and is nothing where one says no script", () => {
    expect(pageScript([{}, { hydrate: true }]).hydrate).toBe(true);
    expect(pageScript([{ hydrate: true }, { scripts: false }])).toEqual({ hydrate: false, modules: [] });
  });

  it("names exactly the modules app/enhance holds", () => {
    const files = readdirSync("app/enhance").filter((file) => /^[a-z-]+\.ts$/.test(file));
    expect(files.map((file) => file.slice(0, -3)).sort()).toEqual([...ENHANCE_MODULES].sort());
  });
});

describe("a live label", () => {
  for (const language of LANGUAGES) {
    it(`reads in ${language} as the server's words for every count`, async () => {
      const server = i18next.createInstance();
      await server.init({ lng: language, resources, interpolation: { escapeValue: false } });
      // Rendered by the server (i18next) and by a hydrating page (the browser's translator) alike.
      const browser = makeTranslate(language, resources[language].translation as unknown as Tree) as unknown as TFunction;
      for (const key of ["navbar.unread", "notifications.bell"]) {
        const label = liveLabel(server.t, language, key);
        expect(liveLabel(browser, language, key)).toBe(label);
        for (const count of [0, 1, 2, 5, 21, 99, 100, 1234]) {
          expect(labelFor(label, language, count)).toBe((server.t as (k: string, o: object) => string)(key, { count }));
        }
      }
    });
  }
});
