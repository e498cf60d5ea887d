import i18next, { type ResourceKey } from "i18next";
import { StrictMode, startTransition } from "react";
import { hydrateRoot } from "react-dom/client";
import { I18nextProvider, initReactI18next } from "react-i18next";
import { HydratedRouter } from "react-router/dom";
import { DEFAULT_LANGUAGE, isLanguage } from "./lib/i18n";

// Only pages whose route hydrates load this (docs/decisions/0046); the shell module (app/enhance/shell.ts)
// reports errors and registers the service worker on every page.

// The page is already readable; hydration waits only for the language the server rendered.
async function hydrate() {
  const lang = isLanguage(document.documentElement.lang) ? document.documentElement.lang : DEFAULT_LANGUAGE;
  // The versioned file the page preloads (the same request, answered from that preload).
  const file = document.documentElement.dataset.localeFile ?? `/locales/${lang}.json`;
  const translation = await fetch(file).then((r) => r.json() as Promise<ResourceKey>);
  await i18next.use(initReactI18next).init({
    lng: lang,
    fallbackLng: DEFAULT_LANGUAGE,
    resources: { [lang]: { translation } },
    interpolation: { escapeValue: false },
  });
  startTransition(() => {
    hydrateRoot(
      document,
      <I18nextProvider i18n={i18next}>
        <StrictMode>
          <HydratedRouter />
        </StrictMode>
      </I18nextProvider>,
    );
  });
}

hydrate().catch((error) => console.error(error));
