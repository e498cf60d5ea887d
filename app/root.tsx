import { useEffect } from "react";
import { useTranslation } from "react-i18next";
import { Links, Meta, Outlet, Scripts, ScrollRestoration, useMatches, useRouteLoaderData } from "react-router";
import { localeFile } from "./.server/i18n/locale-files";
import { optionalUser, sessionMiddleware } from "./.server/web/auth/session";
import { getLocale, i18nextMiddleware } from "./.server/web/i18n/middleware";
import { flashContext, flashMiddleware } from "./.server/web/shell/flash";
import { readSize } from "./.server/web/shell/shell-state";
import type { Route } from "./+types/root";
import { ProgressBar } from "./components/progress-bar";
import { RouteError } from "./components/route-error";
import { FlashToast } from "./components/toast";
import { useDocument } from "./document-context";
import { DEFAULT_SIZE } from "./lib/display-size";
import { DEFAULT_LANGUAGE, isLanguage } from "./lib/i18n";
import type { RootShellData } from "./lib/shapes";
import { clearDrafts } from "./lib/use-drafts";

export const middleware: Route.MiddlewareFunction[] = [i18nextMiddleware, flashMiddleware, sessionMiddleware];

export async function loader({ request, context }: Route.LoaderArgs) {
  const user = optionalUser(context);
  const locale = getLocale(context);
  return {
    locale,
    localeFile: localeFile(isLanguage(locale) ? locale : DEFAULT_LANGUAGE),
    flash: context.get(flashContext),
    size: readSize(request),
    // The shape components read (lib/shapes.ts), since they do not import this file.
    user: (user ? { id: user.id, nickName: user.nick_name, image: user.image } : null) satisfies RootShellData["user"],
  };
}

/** The critical CSS, inlined by the server; the client reuses what is already in the page. */
function CriticalStyle() {
  const { nonce, css } = useDocument();
  const html = css ?? (typeof document === "undefined" ? "" : (document.getElementById("critical-css")?.innerHTML ?? ""));
  // biome-ignore lint/security/noDangerouslySetInnerHtml: our own build's CSS, never member input
  return <style id="critical-css" nonce={nonce} suppressHydrationWarning dangerouslySetInnerHTML={{ __html: html }} />;
}

export function Layout({ children }: { children: React.ReactNode }) {
  const data = useRouteLoaderData<typeof loader>("root");
  const lang = data?.locale ?? DEFAULT_LANGUAGE;
  const { t } = useTranslation();
  // A page with nothing to enhance (its handle says `scripts: false`) ships no JavaScript at all.
  const scripts = !useMatches().some((match) => (match.handle as { scripts?: boolean } | undefined)?.scripts === false);
  return (
    <html
      lang={lang}
      data-locale-file={scripts ? data?.localeFile : undefined}
      data-size={data?.size && data.size !== DEFAULT_SIZE ? data.size : undefined}
    >
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="description" content={t("product.tagline")} />
        {/* Hydration waits for the translations: fetched beside the scripts, not after them. */}
        {scripts && data ? <link rel="preload" as="fetch" crossOrigin="anonymous" href={data.localeFile} /> : null}
        <link rel="icon" href="/favicon.svg" type="image/svg+xml" />
        <Meta />
        <CriticalStyle />
        <Links />
      </head>
      <body>
        {children}
        {scripts ? (
          <>
            <ScrollRestoration />
            <Scripts />
          </>
        ) : null}
      </body>
    </html>
  );
}

export default function App({ loaderData }: Route.ComponentProps) {
  // Marks the page interactive (styles and browser tests can tell enhanced from plain HTML).
  useEffect(() => {
    document.documentElement.dataset.hydrated = "true";
  }, []);
  // Signed out (or never in): no member's drafts stay in the tab.
  const signedIn = Boolean(loaderData.user);
  useEffect(() => {
    if (!signedIn) clearDrafts();
  }, [signedIn]);
  return (
    <>
      <ProgressBar />
      <FlashToast flash={loaderData.flash ?? null} />
      <Outlet />
    </>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <RouteError error={error} />;
}
