import { makeTranslate, type Translate, type Tree } from "~/lib/translate";

// Stands in for i18next in the browser build only (vite.config.ts): the server renders with
// i18next itself, the browser hydrates with the same words from app/lib/translate.ts.

interface Options {
  lng: string;
  resources: Record<string, { translation: unknown }>;
}

const instance = {
  language: "en",
  t: ((key: string) => key) as Translate,
  use(_plugin: unknown) {
    return instance;
  },
  async init(options: Options) {
    instance.language = options.lng;
    instance.t = makeTranslate(options.lng, (options.resources[options.lng]?.translation ?? {}) as Tree);
    return instance.t;
  },
};

export type ResourceKey = unknown;
export type TFunction = Translate;
export default instance;
