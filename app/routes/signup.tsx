import { useTranslation } from "react-i18next";
import { Form, redirect } from "react-router";
import { orcidEnabled, pendingOrcidSignup } from "~/.server/accounts/orcid";
import { readOrcidSignup } from "~/.server/web/auth/orcid-cookies";
import { optionalUser } from "~/.server/web/auth/session";
import { OrcidButton, OrcidSignupNote } from "~/components/orcid";
import { PageTitle } from "~/components/page-title";
import { PublicPage } from "~/components/public-page";
import { Button } from "~/components/ui/button";
import type { Route } from "./+types/signup";

export async function loader({ request, context }: Route.LoaderArgs) {
  if (optionalUser(context)) throw redirect("/");
  return { enabled: orcidEnabled(), pending: await pendingOrcidSignup(readOrcidSignup(request), Date.now()) };
}

/** Step one: the account type (fixed for good) and whether a person or an organisation signs up. */
export default function Signup({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const { enabled, pending } = loaderData;
  return (
    <PublicPage titleKey="signup">
      <PageTitle titleKey="signup" />
      {pending ? <OrcidSignupNote orcid={pending.orcid} name={pending.name} /> : null}
      <Form method="get" action="/signup/individual">
        <fieldset className="mb-4">
          <legend className="mb-2 text-sm font-medium">{t("auth.accountType")}</legend>
          {(["1", "2"] as const).map((type) => (
            <label key={type} className="mb-2 flex items-center gap-2 rounded-md border border-slate-200 bg-white p-3">
              <input type="radio" name="type" value={type} defaultChecked={type === "1"} />
              {type === "1" ? t("auth.researcher") : t("auth.investor")}
            </label>
          ))}
          <p className="text-xs text-slate-500">{t("auth.typeFixed")}</p>
        </fieldset>
        <p className="mb-2 text-sm font-medium">{t("auth.kind")}</p>
        <div className="flex flex-col gap-2 sm:flex-row">
          <Button type="submit" formAction="/signup/individual" className="flex-1">
            {t("auth.individual")}
          </Button>
          <Button type="submit" formAction="/signup/facilitator" variant="outline" className="flex-1">
            {t("auth.facilitator")}
          </Button>
        </div>
      </Form>
      {enabled && !pending ? (
        <>
          <p className="my-3 text-center text-sm text-slate-500">{t("auth.or")}</p>
          <OrcidButton intent="login" label={t("auth.orcidSignUp")} />
        </>
      ) : null}
    </PublicPage>
  );
}
