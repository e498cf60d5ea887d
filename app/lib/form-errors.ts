import type { TFunction } from "i18next";

/** Turns a schema message ("validation.fieldEmpty|field=fields.nickName") into the reader's language. */
export function translateError(t: TFunction, message: string): string {
  const [key = "", ...pairs] = message.split("|");
  const values: Record<string, string> = {};
  for (const pair of pairs) {
    const [name = "", value = ""] = pair.split("=");
    // biome-ignore lint/suspicious/noExplicitAny: keys come from our own schemas
    values[name] = /^(fields|safety\.reasons|languages)\./.test(value) ? t(value as any) : value;
  }
  // biome-ignore lint/suspicious/noExplicitAny: keys come from our own schemas
  const text = t(key as any, values);
  // Not one of ours (a validator's own English wording): a member reads the translated generic one.
  return text === key ? t("validation.inputInvalid") : text;
}
