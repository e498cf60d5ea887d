import { useTranslation } from "react-i18next";
import { PageTitle } from "~/components/page-title";
import type { PageHandle } from "~/lib/page-handle";

// What the service worker shows for a page that cannot be fetched (app/service-worker/sw.js):
// it keeps this page in each language. Text and one link: nothing to hydrate.
export const handle: PageHandle = { scripts: false };

export default function Offline() {
  const { t } = useTranslation();
  return (
    <>
      <PageTitle titleKey="offline" />
      <main className="mx-auto flex min-h-[70vh] max-w-lg flex-col items-center justify-center gap-4 p-6 text-center">
        <h1 className="text-xl font-semibold" data-testid="offline">
          {t("errorPage.titleOffline")}
        </h1>
        <p className="text-slate-600">{t("errorPage.bodyOffline")}</p>
        <a href="/home" className="text-brand underline underline-offset-2">
          {t("errorPage.backHome")}
        </a>
      </main>
    </>
  );
}
