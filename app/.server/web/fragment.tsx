import type { ReactNode } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { I18nextProvider } from "react-i18next";
import { i18nFor } from "~/.server/i18n/translate";

/**
 * A static section of a page as HTML made on the server (decision 0043): links and text, nothing
 * to hydrate, so its component's code never reaches the browser (the page inserts the markup with
 * ServerFragment). React escapes it as it renders any page. Only components without router hooks.
 */
export const renderFragment = (node: ReactNode, language: string) =>
  renderToStaticMarkup(<I18nextProvider i18n={i18nFor(language)}>{node}</I18nextProvider>);
