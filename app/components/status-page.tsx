import { useTranslation } from "react-i18next";
import { Link, useRouteLoaderData } from "react-router";
import type { loader as rootLoader } from "~/root";
import { LoginButton } from "./login-button";
import { buttonVariants } from "./ui/button";

/** The /401, /404 and error pages: a short translated explanation and a way home. */
export function StatusPage({ kind }: { kind: "401" | "404" | "error" }) {
  const { t } = useTranslation();
  const guest = !useRouteLoaderData<typeof rootLoader>("root")?.user;
  const title = kind === "401" ? t("errorPage.title401") : kind === "404" ? t("errorPage.title404") : t("errorPage.titleError");
  const body = kind === "401" ? t("errorPage.body401") : kind === "404" ? t("errorPage.body404") : t("errorPage.bodyError");
  return (
    <main className="mx-auto flex min-h-[70vh] max-w-lg flex-col items-center justify-center gap-4 p-6 text-center">
      {kind !== "error" ? <p className="text-6xl font-bold text-brand">{kind}</p> : null}
      <h1 className="text-xl font-semibold">{title}</h1>
      <p className="text-slate-600">{body}</p>
      <div className="flex gap-2">
        <Link to="/home" className={buttonVariants({ variant: guest ? "outline" : "default" })}>
          {t("errorPage.backHome")}
        </Link>
        {guest ? <LoginButton /> : null}
      </div>
    </main>
  );
}
