import { useTranslation } from "react-i18next";
import { isRouteErrorResponse } from "react-router";
import { StatusPage } from "./status-page";

/** What the root error boundary shows: the 404 or 401 page, or a translated "something went wrong". */
export function RouteError({ error }: { error: unknown }) {
  const { t } = useTranslation();
  const status = isRouteErrorResponse(error) ? error.status : 500;
  const kind = status === 404 ? "404" : status === 401 || status === 403 ? "401" : "error";
  const title = kind === "404" ? t("route.page404") : kind === "401" ? t("route.page401") : t("errorPage.titleError");
  return (
    <>
      <title>{`${title} - ${t("product.title")}`}</title>
      <StatusPage kind={kind} />
    </>
  );
}
