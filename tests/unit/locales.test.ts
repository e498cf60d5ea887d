import { describe, expect, it } from "vitest";
import { resources } from "#locales/index";

type Tree = { [key: string]: string | Tree };

function leaves(tree: Tree, prefix = ""): Map<string, string> {
  const out = new Map<string, string>();
  for (const [key, value] of Object.entries(tree)) {
    const path = prefix ? `${prefix}.${key}` : key;
    if (typeof value === "string") out.set(path, value);
    else for (const [k, v] of leaves(value, path)) out.set(k, v);
  }
  return out;
}

const variables = (text: string) => [...text.matchAll(/\{\{(\w+)\}\}/g)].map((m) => m[1]).sort();
const en = leaves(resources.en.translation);

describe.each(["ja", "zh"] as const)("the %s translation, checked against English", (lang) => {
  const other = leaves(resources[lang].translation as Tree);

  it("has exactly English's keys", () => {
    expect([...other.keys()].sort()).toEqual([...en.keys()].sort());
  });

  it("translates every text, keeping its {{variables}}", () => {
    for (const [key, text] of en) {
      const translated = other.get(key) ?? "";
      expect(translated.trim(), `${lang}:${key} is empty`).not.toBe("");
      expect(variables(translated), `${lang}:${key}`).toEqual(variables(text));
    }
  });

  it("does not leave whole English sentences untranslated", () => {
    const same = [...en].filter(([key, text]) => other.get(key) === text && /[a-z]{3,} [a-z]{3,}/i.test(text));
    expect(same).toEqual([]);
  });
});

describe("the spec's messages (sections 5 and 8) are English's exact texts", () => {
  it.each([
    "Email cannot be empty",
    "Password can not be empty",
    "Verification Code can not be empty",
    "Confirm Password can not be empty",
    "Entered passwords differ!",
    "Please enter the correct email format!",
    "{{field}} cannot be empty",
    "Repeat addition",
    "Input Cannot Empty",
    "Please log in to view contents",
    "NetWork Time Out",
    "you browser can not work",
    "Reset Password Success",
    "Send Success",
    "Update Success",
    "Switch Language Success",
    "Load History Search Error",
  ])("'%s'", (message) => {
    expect([...en.values()]).toContain(message);
  });

  it("uses the spec's own Chinese for a failed request", () => {
    expect(resources.zh.translation.notify.requestFailed).toBe("接口请求失败");
  });
});
