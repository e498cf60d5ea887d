import { useTranslation } from "react-i18next";
import type { TitleKey } from "~/lib/route-meta";
import { LanguageSwitcher } from "./language-switcher";
import { LoginButton } from "./login-button";
import { Logo } from "./logo";

/** The frame of the public pages (login, sign-up, password reset): no menu, just logo and language. */
export function PublicPage({ titleKey, children }: { titleKey: TitleKey; children: React.ReactNode }) {
  const { t } = useTranslation();
  return (
    <div className="min-h-screen">
      <header className="flex h-12 items-center justify-between border-b border-slate-200 bg-white px-4">
        <Logo />
        <div className="flex items-center gap-2">
          <LanguageSwitcher />
          {/* Spec section 1: signed out, the header offers the login (except on the login page itself). */}
          {titleKey === "login" ? null : <LoginButton />}
        </div>
      </header>
      <main className="mx-auto max-w-md p-6">
        <h1 className="mb-4 text-xl font-semibold">{t(`route.${titleKey}`)}</h1>
        {children}
      </main>
    </div>
  );
}
