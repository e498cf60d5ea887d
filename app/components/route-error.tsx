import { useEffect } from "react";
import { useTranslation } from "react-i18next";
import { isRouteErrorResponse } from "react-router";
import { useDocument } from "~/document-context";
import { reportClientError } from "~/lib/client-errors";
import { STATUS_TEXTS, StatusPage } from "./status-page";

/** The id of the request that failed: from the server while rendering, from the page once hydrated. */
function useRequestId(): string | undefined {
  const { requestId } = useDocument();
  if (requestId) return requestId;
  if (typeof document === "undefined") return undefined;
  return document.querySelector<HTMLElement>("[data-request-id]")?.dataset.requestId;
}

/**
 * What the root error boundary shows: the 404 or 401 page, the offline page when a page moved to in
 * the browser could not be fetched without a network (the service worker answers only whole pages),
 * or a translated "something went wrong".
 */
export function RouteError({ error }: { error: unknown }) {
  const { t } = useTranslation();
  const status = isRouteErrorResponse(error) ? error.status : 500;
  // Workers have a navigator too, without onLine: only a browser that says it is offline is.
  const offline = !isRouteErrorResponse(error) && typeof navigator !== "undefined" && navigator.onLine === false;
  const kind = status === 404 ? "404" : status === 401 || status === 403 ? "401" : offline ? "offline" : "error";
  // The 404 and 401 pages' titles are their routes' names; the others are the pages' headings.
  const title = kind === "404" ? t("route.page404") : kind === "401" ? t("route.page401") : t(STATUS_TEXTS[kind][0]);
  const requestId = useRequestId();
  // Errors the browser runs into go to the frontend error log; 401/404 are answers, not errors, and
  // a page the server rendered with a request id was logged by the server already.
  const serverLogged = Boolean(requestId);
  useEffect(() => {
    if (kind === "error" && !serverLogged) reportClientError("boundary", error);
  }, [kind, error, serverLogged]);
  return (
    <>
      <title>{`${title} - ${t("product.title")}`}</title>
      <StatusPage kind={kind} />
      {kind === "error" && requestId ? (
        <p className="-mt-[20vh] pb-8 text-center text-xs text-slate-500" data-request-id={requestId} suppressHydrationWarning>
          {t("errorPage.requestId", { id: requestId })}
        </p>
      ) : null}
    </>
  );
}
