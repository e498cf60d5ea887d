import { useTranslation } from "react-i18next";
import { Form, useLocation } from "react-router";
import { LANGUAGE_SWITCH } from "~/lib/i18n";
import { cn } from "~/lib/utils";

/** JP / EN / CN. A plain form post; the page reloads in the chosen language. */
export function LanguageSwitcher() {
  const { t, i18n } = useTranslation();
  const location = useLocation();
  return (
    <Form
      method="post"
      action="/shell/locale"
      reloadDocument
      className="flex items-center"
      aria-label={t("navbar.language")}
      data-testid="language-switcher"
    >
      <input type="hidden" name="redirectTo" value={location.pathname + location.search} />
      {LANGUAGE_SWITCH.map(({ lang, label, name }) => (
        <button
          key={lang}
          type="submit"
          name="lang"
          value={lang}
          lang={lang}
          title={name}
          aria-pressed={i18n.language === lang}
          className={cn(
            "min-w-6 rounded px-1.5 py-1 text-xs font-medium hover:text-brand",
            i18n.language === lang ? "bg-slate-100 text-brand" : "text-slate-500",
          )}
        >
          {label}
        </button>
      ))}
    </Form>
  );
}
