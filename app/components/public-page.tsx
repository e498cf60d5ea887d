import { useTranslation } from "react-i18next";
import type { TitleKey } from "~/lib/route-meta";
import { LanguageSwitcher } from "./language-switcher";
import { LoginButton } from "./login-button";
import { Logo } from "./logo";

/** The header a signed-out visitor sees: logo, language, and (spec section 1) the login, except on the login page itself. */
export function PublicHeader({ login = true }: { login?: boolean }) {
  return (
    <header className="flex h-12 items-center justify-between border-b border-slate-200 bg-white px-4">
      <Logo />
      <div className="flex items-center gap-2">
        <LanguageSwitcher />
        {login ? <LoginButton /> : null}
      </div>
    </header>
  );
}

/** The frame of the public pages (login, sign-up, password reset): no menu, just logo and language. */
export function PublicPage({ titleKey, children }: { titleKey: TitleKey; children: React.ReactNode }) {
  const { t } = useTranslation();
  return (
    <div className="min-h-screen">
      <PublicHeader login={titleKey !== "login"} />
      <main className="mx-auto max-w-md p-6">
        <h1 className="mb-4 text-xl font-semibold">{t(`route.${titleKey}`)}</h1>
        {children}
      </main>
    </div>
  );
}
