import en from "./en/translation";
import ja from "./ja/translation";
import zh from "./zh/translation";

export const resources = {
  en: { translation: en },
  ja: { translation: ja },
  zh: { translation: zh },
};
