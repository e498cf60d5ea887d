import { resources } from "#locales/index";
import type { Language } from "~/lib/i18n";

// The browser's translations are versioned by their content (/locales/en.<hash>.json), so the page
// can preload them and a browser keeps them until they change.

/** FNV-1a (32 bits) of the text: a version, not a secret. */
function fnv1a(text: string) {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return (hash >>> 0).toString(36);
}

const bodies = new Map<Language, { json: string; version: string }>();

/** The language's translations as served, and their version. */
export function localeBody(language: Language) {
  let body = bodies.get(language);
  if (!body) {
    const json = JSON.stringify(resources[language].translation);
    body = { json, version: fnv1a(json) };
    bodies.set(language, body);
  }
  return body;
}

/** Where the page's script finds the language's translations. */
export const localeFile = (language: Language) => `/locales/${language}.${localeBody(language).version}.json`;
