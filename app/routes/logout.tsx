import { useTranslation } from "react-i18next";
import { Form, Link, redirect } from "react-router";
import { logout } from "~/.server/accounts/accounts";
import { clearTokenCookie } from "~/.server/web/auth/cookies";
import { sessionContext } from "~/.server/web/auth/session";
import { flashRedirect } from "~/.server/web/shell/flash";
import { PageTitle } from "~/components/page-title";
import { PublicPage } from "~/components/public-page";
import { Button, buttonVariants } from "~/components/ui/button";
import type { Route } from "./+types/logout";

/** Without JavaScript the header's logout link lands here to confirm; with it, a dialog asks. */
export function loader({ context }: Route.LoaderArgs) {
  if (!context.get(sessionContext).user) throw redirect("/login");
  return null;
}

export async function action({ request, context }: Route.ActionArgs) {
  const { token } = context.get(sessionContext);
  if (token) await logout(token);
  const headers = new Headers([["Set-Cookie", clearTokenCookie(request)]]);
  return flashRedirect(request, "/login", "info", "notify.loggedOut", { headers });
}

export default function Logout() {
  const { t } = useTranslation();
  return (
    <PublicPage titleKey="logout">
      <PageTitle titleKey="logout" />
      <p className="mb-4">{t("auth.logoutQuestion")}</p>
      <Form method="post" className="flex gap-2">
        <Button type="submit">{t("navbar.logout")}</Button>
        <Link to="/home" className={buttonVariants({ variant: "outline" })}>
          {t("auth.cancel")}
        </Link>
      </Form>
    </PublicPage>
  );
}
