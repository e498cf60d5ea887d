import modules from "virtual:enhance";
import { renderToReadableStream } from "react-dom/server";
import { I18nextProvider } from "react-i18next";
import { type EntryContext, type HandleErrorFunction, type RouterContextProvider, ServerRouter } from "react-router";
import { requestContext } from "./.server/web/context";
import { withPageCss } from "./.server/web/critical-css";
import { getInstance } from "./.server/web/i18n/middleware";
import { logFailure } from "./.server/web/observability/failures";
import css from "./app.css?inline";
import { DocumentContext } from "./document-context";
import { findMeta } from "./lib/route-meta";

/** Loader, action and render errors: one structured log line, with the id the error page shows. */
export const handleError: HandleErrorFunction = (error, { request, context }) => {
  if (request.signal.aborted) return; // the member went away; nothing failed
  logFailure(request, context.get(requestContext).requestId, error);
};

export default async function handleRequest(
  request: Request,
  status: number,
  headers: Headers,
  routerContext: EntryContext,
  loadContext: RouterContextProvider,
) {
  const { nonce, requestId } = loadContext.get(requestContext);
  let responseStatus = status;
  const body = await renderToReadableStream(
    <DocumentContext value={{ nonce, css, requestId, modules }}>
      <I18nextProvider i18n={getInstance(loadContext)}>
        <ServerRouter context={routerContext} url={request.url} nonce={nonce} />
      </I18nextProvider>
    </DocumentContext>,
    {
      nonce,
      signal: request.signal,
      onError(error: unknown) {
        responseStatus = 500;
        logFailure(request, requestId, error);
      },
    },
  );
  // Finished HTML, never a half page: members on slow links get one complete document, with only
  // the CSS its markup uses (a page React hydrates keeps it all).
  await body.allReady;
  const page = withPageCss(await new Response(body).text());
  headers.set("Content-Type", "text/html; charset=utf-8");
  // Pages are never kept by shared caches; the public ones (login, sign-up, reset) not even by the
  // browser (spec section 2: "not cached"), so a shared computer shows no one's typed email later.
  if (!headers.has("Cache-Control")) {
    headers.set("Cache-Control", findMeta(new URL(request.url).pathname)?.noCache ? "no-store" : "private, no-cache");
  }
  return new Response(page, { headers, status: responseStatus });
}
