import type { TFunction } from "i18next";

/**
 * A label the shell module rewrites when a count changes live (app/enhance/shell.ts): the key's text
 * for each plural form of the language, with `{{count}}` left in, as JSON for a `data-label`.
 */
export function liveLabel(translate: TFunction, language: string, key: string): string {
  const t = translate as (key: string, options: { count: string }) => string;
  const forms = new Intl.PluralRules(language).resolvedOptions().pluralCategories.map((form) => {
    const text = t(`${key}_${form}`, { count: "{{count}}" });
    return [form, text === `${key}_${form}` ? t(key, { count: "{{count}}" }) : text];
  });
  return JSON.stringify(Object.fromEntries(forms));
}

/** The label for `count` from a `liveLabel`. */
export function labelFor(label: string, language: string, count: number): string {
  const forms = JSON.parse(label) as Record<string, string>;
  return (forms[new Intl.PluralRules(language).select(count)] ?? forms.other ?? "").replace("{{count}}", String(count));
}
