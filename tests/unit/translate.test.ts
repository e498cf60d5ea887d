import i18next from "i18next";
import { describe, expect, it } from "vitest";
import { resources } from "#locales/index";
import { LANGUAGES } from "~/lib/i18n";
import { makeTranslate, type Tree } from "~/lib/translate";

// The browser's translator against i18next itself (which renders the pages on the server): every
// key of every language, with and without values and counts, must read the same.

function keys(tree: Tree, prefix = ""): string[] {
  return Object.entries(tree).flatMap(([name, value]) =>
    typeof value === "string" ? [`${prefix}${name}`.replace(/_(zero|one|two|few|many|other)$/, "")] : keys(value, `${prefix}${name}.`),
  );
}

describe("the browser's translator", () => {
  for (const language of LANGUAGES) {
    it(`reads every ${language} key as i18next does`, async () => {
      const reference = i18next.createInstance();
      await reference.init({ lng: language, resources, interpolation: { escapeValue: false } });
      const tree = resources[language].translation as unknown as Tree;
      const translate = makeTranslate(language, tree);
      const expected = reference.t as unknown as (key: string, options?: object) => string;
      const values = { name: "Ada <b>", title: "T", max: 5, field: "Title", actor: "Lin", subject: "S", reason: "r", q: "x&y" };
      for (const key of new Set(keys(tree))) {
        for (const options of [
          undefined,
          values,
          { ...values, count: 0 },
          { ...values, count: 1 },
          { ...values, count: 2 },
          { count: 21 },
        ]) {
          expect(translate(key, options), `${key} ${JSON.stringify(options)}`).toBe(expected(key, options));
        }
      }
      expect(translate("no.such.key")).toBe(expected("no.such.key"));
    });
  }
});
