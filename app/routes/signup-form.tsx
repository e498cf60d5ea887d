import { parseWithZod } from "@conform-to/zod/v4";
import { useTranslation } from "react-i18next";
import { data, Form, Link, redirect, useMatches, useSearchParams } from "react-router";
import type { z } from "zod";
import { register, sendVerificationCode } from "~/.server/accounts/accounts";
import { pendingOrcidSignup } from "~/.server/accounts/orcid";
import { callerFrom } from "~/.server/web/auth/caller";
import { codeSent, invalid, signInHeaders } from "~/.server/web/auth/form-actions";
import { clearOrcidSignup, readOrcidSignup } from "~/.server/web/auth/orcid-cookies";
import { optionalUser } from "~/.server/web/auth/session";
import { flashRedirect } from "~/.server/web/shell/flash";
import { refusalReply } from "~/.server/web/shell/refusals";
import { pageUrl } from "~/.server/web/shell/shell-state";
import { EmailAndCode, NewPassword } from "~/components/code-fields";
import { OrcidSignupNote } from "~/components/orcid";
import { PageTitle } from "~/components/page-title";
import { PublicPage } from "~/components/public-page";
import { Button } from "~/components/ui/button";
import { Field, FormErrors } from "~/components/ui/field";
import { type Kind, schemaForIntent, signupSchema } from "~/lib/schemas/auth";
import { getFormProps, getInputProps, useForm } from "~/lib/use-form";
import type { Route } from "./+types/signup-form";

// The same module serves both paths; data requests (".data") name the same page.
const kindOf = (request: Request): Kind => (pageUrl(request).pathname === "/signup/facilitator" ? "facilitator" : "individual");

export async function loader({ request, context }: Route.LoaderArgs) {
  if (optionalUser(context)) throw redirect("/");
  return { orcid: await pendingOrcidSignup(readOrcidSignup(request), Date.now()) };
}

export async function action({ request, context }: Route.ActionArgs) {
  const kind = kindOf(request);
  const formData = await request.formData();
  const orcidToken = readOrcidSignup(request);
  const withOrcid = Boolean(await pendingOrcidSignup(orcidToken, Date.now()));
  const submission = parseWithZod(formData, { schema: schemaForIntent(formData, signupSchema(kind, withOrcid)) });
  if (submission.status !== "success") return invalid(submission);
  const caller = callerFrom(request, context);
  try {
    const value = submission.value;
    if (value.intent === "send-code") {
      await sendVerificationCode(value.email, "register", caller);
      return codeSent(submission);
    }
    const { token, user } = await register(
      {
        email: value.email,
        code: value.code,
        password: value.password,
        nickName: value.nickName,
        accountType: value.accountType === "2" ? 2 : 1,
        kind,
        organisation: value.organisation,
        orcidToken: withOrcid ? orcidToken : undefined,
      },
      caller,
    );
    const headers = await signInHeaders(request, context, token, user);
    if (withOrcid) headers.append("Set-Cookie", clearOrcidSignup(request));
    return flashRedirect(request, "/home", "success", "notify.welcome", { headers });
  } catch (error) {
    const { reply, status } = refusalReply(submission, error);
    return data({ result: reply, notice: null }, { status });
  }
}

/** Sign-up for a person (/signup/individual) or an organisation (/signup/facilitator). */
export default function SignupForm({ actionData, loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const kind = useMatches().at(-1)?.id === "signupFacilitator" ? "facilitator" : "individual";
  const [params] = useSearchParams();
  const orcid = loaderData?.orcid ?? null;
  const [form, fields] = useForm<z.input<ReturnType<typeof signupSchema>>>({
    lastResult: actionData?.result,
    defaultValue: { accountType: params.get("type") === "2" ? "2" : "1", nickName: orcid?.name ?? "" },
  });
  const titleKey = kind === "facilitator" ? "signupFacilitator" : "signupIndividual";
  return (
    <PublicPage titleKey={titleKey}>
      <PageTitle titleKey={titleKey} />
      <Form method="post" {...getFormProps(form)}>
        {/* Enter in any field creates the account, not a new code. */}
        <button type="submit" name="intent" value="register" className="sr-only" tabIndex={-1} aria-hidden />
        <FormErrors errors={form.errors} id={form.errorId} />
        {orcid ? <OrcidSignupNote orcid={orcid.orcid} name={orcid.name} /> : null}
        <fieldset className="mb-4">
          <legend className="mb-1 text-sm font-medium">{t("auth.accountType")}</legend>
          <div className="flex gap-4">
            {(["1", "2"] as const).map((type) => (
              <label key={type} className="flex items-center gap-2 text-sm">
                <input type="radio" name={fields.accountType.name} value={type} defaultChecked={fields.accountType.initialValue === type} />
                {type === "1" ? t("auth.researcher") : t("auth.investor")}
              </label>
            ))}
          </div>
          <p className="mt-1 text-xs text-slate-500">{t("auth.typeFixed")}</p>
        </fieldset>
        {kind === "facilitator" ? (
          <Field
            label={t("auth.organisation")}
            errors={fields.organisation.errors}
            {...getInputProps(fields.organisation, { type: "text" })}
          />
        ) : null}
        <EmailAndCode email={fields.email} code={fields.code} sent={Boolean(actionData?.notice)} />
        <Field
          label={t("auth.nickName")}
          autoComplete="nickname"
          errors={fields.nickName.errors}
          {...getInputProps(fields.nickName, { type: "text" })}
        />
        {orcid ? <p className="mb-2 text-sm text-slate-600">{t("auth.orcidPasswordOptional")}</p> : null}
        <NewPassword password={fields.password} confirm={fields.confirmPassword} label="auth.password" />
        <Button type="submit" name="intent" value="register" className="w-full">
          {t("auth.submitSignup")}
        </Button>
      </Form>
      <p className="mt-4 text-sm">
        {t("auth.haveAccount")}{" "}
        <Link to="/login" className="text-brand underline underline-offset-2">
          {t("route.login")}
        </Link>
      </p>
    </PublicPage>
  );
}
