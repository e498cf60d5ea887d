// The part of i18next the browser uses, in a few lines (docs/decisions/0011): nested keys,
// {{name}} values, and plurals by `count` (key_one, key_other, as Intl.PluralRules names them).
// tests/unit/translate.test.ts holds it to i18next's own answers for every key in every language.

export interface Tree {
  [key: string]: string | Tree;
}

export type Translate = (key: string, options?: Record<string, unknown>) => string;

export function makeTranslate(language: string, tree: Tree): Translate {
  const plurals = new Intl.PluralRules(language);
  const lookup = (key: string) => {
    let node: string | Tree | undefined = tree;
    for (const part of key.split(".")) node = typeof node === "object" ? node[part] : undefined;
    return typeof node === "string" ? node : undefined;
  };
  return (key, options) => {
    const count = options?.count;
    const text = (typeof count === "number" ? lookup(`${key}_${plurals.select(count)}`) : undefined) ?? lookup(key);
    if (text === undefined) return key;
    return text.replace(/\{\{\s*([\w.]+)\s*\}\}/g, (whole, name: string) => {
      const value = options?.[name];
      return value === undefined || value === null ? whole : String(value);
    });
  };
}
