import { useEffect } from "react";
import { useTranslation } from "react-i18next";
import { Links, Meta, Outlet, Scripts, ScrollRestoration, useLocation, useMatches, useNavigation, useRouteLoaderData } from "react-router";
import { localeFile } from "./.server/i18n/locale-files";
import { optionalUser, sessionMiddleware } from "./.server/web/auth/session";
import { getLocale, i18nextMiddleware } from "./.server/web/i18n/middleware";
import { flashContext, flashMiddleware } from "./.server/web/shell/flash";
import { prefetchMiddleware } from "./.server/web/shell/prefetch";
import { readSize } from "./.server/web/shell/shell-state";
import type { Route } from "./+types/root";
import { PageModule, SpeculationRules } from "./components/page-scripts";
import { ProgressBar } from "./components/progress-bar";
import { RouteError } from "./components/route-error";
import { FlashToast } from "./components/toast";
import { useDocument } from "./document-context";
import { DEFAULT_SIZE } from "./lib/display-size";
import { DEFAULT_LANGUAGE, isLanguage } from "./lib/i18n";
import { type PageHandle, pageScript } from "./lib/page-handle";
import type { RootShellData } from "./lib/shapes";

export const middleware: Route.MiddlewareFunction[] = [i18nextMiddleware, flashMiddleware, sessionMiddleware, prefetchMiddleware];

export async function loader({ request, context }: Route.LoaderArgs) {
  const user = optionalUser(context);
  const locale = getLocale(context);
  return {
    locale,
    localeFile: localeFile(isLanguage(locale) ? locale : DEFAULT_LANGUAGE),
    flash: context.get(flashContext),
    size: readSize(request),
    // When the page was made: a page the browser fetched ahead and opened much later is made again.
    served: Date.now(),
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
  // What the page's routes say in their handles (lib/page-handle.ts, docs/decisions/0046).
  const { search } = useLocation();
  const handles = useMatches().map((match) => match.handle as PageHandle | undefined);
  const { hydrate, modules } = pageScript(handles, new URLSearchParams(search));
  return (
    <html
      lang={lang}
      data-locale-file={hydrate ? data?.localeFile : undefined}
      data-size={data?.size && data.size !== DEFAULT_SIZE ? data.size : undefined}
      data-guest={data && !data.user ? "" : undefined}
      data-hydrate={hydrate ? "" : undefined}
      data-served={data?.served}
      // A page without script is interactive as it arrives; else the shell module says when.
      data-interactive={modules.length ? undefined : ""}
    >
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        {handles.some((handle) => handle?.describes) ? null : <meta name="description" content={t("product.tagline")} />}
        {/* Hydration waits for the translations: fetched beside the scripts, not after them. */}
        {hydrate && data ? <link rel="preload" as="fetch" crossOrigin="anonymous" href={data.localeFile} /> : null}
        <link rel="icon" href="/favicon.svg" type="image/svg+xml" />
        <Meta />
        <CriticalStyle />
        <Links />
      </head>
      <body>
        {children}
        {hydrate ? (
          <>
            <ScrollRestoration />
            <Scripts />
          </>
        ) : null}
        {/* The page's modules, then the shell, in this order (module scripts run in document order). */}
        {modules.map((name) => (
          <PageModule key={name} name={name} />
        ))}
        {modules.length ? <SpeculationRules /> : null}
      </body>
    </html>
  );
}

export default function App({ loaderData }: Route.ComponentProps) {
  // Runs only where the page hydrates: the shell module waits for this before it marks the page interactive.
  useEffect(() => {
    document.documentElement.dataset.hydrated = "true";
    document.dispatchEvent(new Event("hydrated"));
  }, []);
  useLeaveByDocument();
  return (
    <>
      <ProgressBar />
      <FlashToast flash={loaderData.flash ?? null} />
      <Outlet />
    </>
  );
}

/**
 * A hydrated page leaves by a document load, as every other page moves: the next page's server HTML
 * and its own modules, not React rendering it here. Changes of the query alone stay in the page.
 */
function useLeaveByDocument() {
  const navigation = useNavigation();
  const { pathname } = useLocation();
  const next = navigation.state === "loading" ? navigation.location : null;
  useEffect(() => {
    if (next && next.pathname !== pathname) window.location.assign(next.pathname + next.search + next.hash);
  }, [next, pathname]);
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <RouteError error={error} />;
}
