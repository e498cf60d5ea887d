import { parseWithZod } from "@conform-to/zod/v4";
import { useTranslation } from "react-i18next";
import { data, Form, Link, redirect, useSearchParams } from "react-router";
import type { z } from "zod";
import { login } from "~/.server/accounts/accounts";
import { orcidEnabled } from "~/.server/accounts/orcid";
import { callerFrom } from "~/.server/web/auth/caller";
import { sessionJustExpired } from "~/.server/web/auth/cookies";
import { invalid, signInHeaders } from "~/.server/web/auth/form-actions";
import { optionalUser } from "~/.server/web/auth/session";
import { refusalReply } from "~/.server/web/shell/refusals";
import { OrcidButton } from "~/components/orcid";
import { PageTitle } from "~/components/page-title";
import { PublicPage } from "~/components/public-page";
import { Button } from "~/components/ui/button";
import { Field, FormErrors } from "~/components/ui/field";
import { safeRedirect } from "~/lib/safe-redirect";
import { loginSchema } from "~/lib/schemas/auth";
import { getFormProps, getInputProps, useForm } from "~/lib/use-form";
import type { Route } from "./+types/login";

export function loader({ request, context }: Route.LoaderArgs) {
  // A signed-in visitor opening /login goes to /.
  if (optionalUser(context)) throw redirect("/");
  // Said on the page itself, not only in a passing notice: it stays until the member signs in, with JavaScript or without.
  return { expired: sessionJustExpired(request), orcid: orcidEnabled() };
}

export async function action({ request, context }: Route.ActionArgs) {
  const submission = parseWithZod(await request.formData(), { schema: loginSchema });
  if (submission.status !== "success") return invalid(submission);
  try {
    const { token, user } = await login(submission.value.email, submission.value.password, callerFrom(request, context));
    return redirect(safeRedirect(submission.value.redirect), { status: 303, headers: await signInHeaders(request, context, token, user) });
  } catch (error) {
    const { reply, status } = refusalReply(submission, error);
    return data({ result: reply, notice: null }, { status });
  }
}

export default function Login({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const [form, fields] = useForm<z.input<typeof loginSchema>>({
    lastResult: actionData?.result,
  });
  const redirectTo = params.get("redirect") ?? "";
  return (
    <PublicPage titleKey="login">
      <PageTitle titleKey="login" />
      {loaderData?.expired ? (
        <p role="alert" className="mb-4 rounded border border-amber-300 bg-amber-50 p-3 text-sm" data-testid="session-expired">
          {t("notify.sessionExpired")}
        </p>
      ) : null}
      <Form method="post" {...getFormProps(form)}>
        <FormErrors errors={form.errors} id={form.errorId} />
        <input type="hidden" name="redirect" value={redirectTo} />
        <Field
          label={t("auth.email")}
          autoComplete="email"
          errors={fields.email.errors}
          {...getInputProps(fields.email, { type: "email" })}
        />
        <Field
          label={t("auth.password")}
          autoComplete="current-password"
          errors={fields.password.errors}
          {...getInputProps(fields.password, { type: "password" })}
        />
        <Button type="submit" className="w-full">
          {t("auth.submitLogin")}
        </Button>
      </Form>
      {loaderData?.orcid ? (
        <>
          <p className="my-3 text-center text-sm text-slate-500">{t("auth.or")}</p>
          <OrcidButton intent="login" redirect={redirectTo} label={t("auth.orcidSignIn")} />
        </>
      ) : null}
      <div className="mt-4 flex justify-between text-sm">
        <Link to="/forgetPassword" className="text-brand underline underline-offset-2">
          {t("auth.forgot")}
        </Link>
        <span>
          {t("auth.noAccount")}{" "}
          <Link to="/signup" className="text-brand underline underline-offset-2">
            {t("route.signup")}
          </Link>
        </span>
      </div>
    </PublicPage>
  );
}
