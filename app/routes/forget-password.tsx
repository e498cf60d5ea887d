import { parseWithZod } from "@conform-to/zod/v4";
import { useTranslation } from "react-i18next";
import { data, Form, Link } from "react-router";
import type { z } from "zod";
import { resetPassword, sendVerificationCode } from "~/.server/accounts/accounts";
import { callerFrom } from "~/.server/web/auth/caller";
import { codeSent, invalid, rememberDevice } from "~/.server/web/auth/form-actions";
import { flashRedirect } from "~/.server/web/shell/flash";
import { refusalReply } from "~/.server/web/shell/refusals";
import { EmailAndCode, NewPassword } from "~/components/code-fields";
import { PageTitle } from "~/components/page-title";
import { PublicPage } from "~/components/public-page";
import { Button } from "~/components/ui/button";
import { FormErrors } from "~/components/ui/field";
import { resetSchema, schemaForIntent } from "~/lib/schemas/auth";
import { getFormProps, useForm } from "~/lib/use-form";
import type { Route } from "./+types/forget-password";

export async function action({ request, context }: Route.ActionArgs) {
  const formData = await request.formData();
  const submission = parseWithZod(formData, { schema: schemaForIntent(formData, resetSchema) });
  if (submission.status !== "success") return invalid(submission);
  const caller = callerFrom(request, context);
  try {
    const value = submission.value;
    if (value.intent === "send-code") {
      await sendVerificationCode(value.email, "reset", caller);
      return codeSent(submission);
    }
    await resetPassword({ email: value.email, code: value.code, password: value.password }, caller);
    // The reset proved the mailbox: this browser becomes one the account-wide failure limit lets through.
    const headers = new Headers([["Set-Cookie", await rememberDevice(request, value.email)]]);
    return flashRedirect(request, "/login", "success", "notify.resetPasswordSuccess", { headers });
  } catch (error) {
    const { reply, status } = refusalReply(submission, error);
    return data({ result: reply, notice: null }, { status });
  }
}

/** Forgotten password: a code by mail, then a new password; every session of the member ends. */
export default function ForgetPassword({ actionData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const [form, fields] = useForm<z.input<typeof resetSchema>>({
    lastResult: actionData?.result,
  });
  return (
    <PublicPage titleKey="forgetPassword">
      <PageTitle titleKey="forgetPassword" />
      <Form method="post" {...getFormProps(form)}>
        <button type="submit" name="intent" value="reset" className="sr-only" tabIndex={-1} aria-hidden />
        <FormErrors errors={form.errors} id={form.errorId} />
        <EmailAndCode email={fields.email} code={fields.code} sent={Boolean(actionData?.notice)} />
        <NewPassword password={fields.password} confirm={fields.confirmPassword} label="auth.newPassword" />
        <Button type="submit" name="intent" value="reset" className="w-full">
          {t("auth.submitReset")}
        </Button>
      </Form>
      <p className="mt-4 text-sm">
        <Link to="/login" className="text-brand underline underline-offset-2">
          {t("route.login")}
        </Link>
      </p>
    </PublicPage>
  );
}
