import { useTranslation } from "react-i18next";
import { isRouteErrorResponse } from "react-router";
import { StatusPage } from "./status-page";

/** What the root error boundary shows: the 404 or 401 page, or a translated "something went wrong". */
export function RouteError({ error }: { error: unknown }) {
  const { t } = useTranslation();
  if (isRouteErrorResponse(error) && error.status === 404) return <StatusPage kind="404" />;
  if (isRouteErrorResponse(error) && (error.status === 401 || error.status === 403)) return <StatusPage kind="401" />;
  return (
    <>
      <title>{`${t("errorPage.titleError")} - ${t("product.title")}`}</title>
      <StatusPage kind="error" />
    </>
  );
}
