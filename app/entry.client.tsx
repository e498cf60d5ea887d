import i18next, { type ResourceKey } from "i18next";
import { StrictMode, startTransition } from "react";
import { hydrateRoot } from "react-dom/client";
import { I18nextProvider, initReactI18next } from "react-i18next";
import { HydratedRouter } from "react-router/dom";
import { listenForClientErrors } from "./lib/client-errors";
import { DEFAULT_LANGUAGE, isLanguage } from "./lib/i18n";

listenForClientErrors();

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

// The service worker keeps scripts for the next visit and shows the offline page; it tells it the
// page's language. A browser without one loses nothing. It starts after the page has loaded: its
// install fetches the offline pages, which on a slow network would compete with the page's own files.
function registerServiceWorker() {
  navigator.serviceWorker
    .register("/sw.js")
    .then(() => navigator.serviceWorker.ready)
    .then((registration) => registration.active?.postMessage({ language: document.documentElement.lang }))
    .catch((error) => console.error("service worker not registered", error));
}

if ("serviceWorker" in navigator) {
  if (document.readyState === "complete") registerServiceWorker();
  else window.addEventListener("load", registerServiceWorker, { once: true });
}
