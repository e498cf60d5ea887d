import { cleanup } from "@testing-library/react";
import i18next from "i18next";
import { initReactI18next } from "react-i18next";
import { afterEach } from "vitest";
import { resources } from "#locales/index";

await i18next.use(initReactI18next).init({ lng: "en", fallbackLng: "en", resources, interpolation: { escapeValue: false } });

afterEach(async () => {
  cleanup();
  await i18next.changeLanguage("en");
});
