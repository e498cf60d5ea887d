import { useTranslation } from "react-i18next";
import { Link, useRouteLoaderData } from "react-router";
import type { RootShellData } from "~/lib/shapes";
import { PublicHeader } from "./public-page";
import { buttonVariants } from "./ui/button";

/** Each page's title and explanation. */
export const STATUS_TEXTS = {
  "401": ["errorPage.title401", "errorPage.body401"],
  "404": ["errorPage.title404", "errorPage.body404"],
  error: ["errorPage.titleError", "errorPage.bodyError"],
  offline: ["errorPage.titleOffline", "errorPage.bodyOffline"],
} as const;

/** The /401, /404, error and offline pages: a short translated explanation and a way home. */
export function StatusPage({ kind }: { kind: keyof typeof STATUS_TEXTS }) {
  const { t } = useTranslation();
  const guest = !useRouteLoaderData<RootShellData>("root")?.user;
  const [title, body] = STATUS_TEXTS[kind].map((key) => t(key));
  return (
    <>
      {/* A signed-out visitor has no shell around the page: the public header gives them the login and language (spec section 1). */}
      {guest ? <PublicHeader /> : null}
      <main className="mx-auto flex min-h-[70vh] max-w-lg flex-col items-center justify-center gap-4 p-6 text-center">
        {kind === "401" || kind === "404" ? <p className="text-6xl font-bold text-brand">{kind}</p> : null}
        <h1 className="text-xl font-semibold" data-testid={kind === "offline" ? "offline" : undefined}>
          {title}
        </h1>
        <p className="text-slate-600">{body}</p>
        <div className="flex gap-2">
          <Link to="/home" className={buttonVariants()}>
            {t("errorPage.backHome")}
          </Link>
        </div>
      </main>
    </>
  );
}
