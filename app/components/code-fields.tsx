import { useTranslation } from "react-i18next";
import { type FieldMetadata, getInputProps } from "~/lib/use-form";
import { Button } from "./ui/button";
import { Field } from "./ui/field";

type TextField = FieldMetadata;

/**
 * The parts sign-up and password reset share: the email with its "send code" button (a submit with
 * its own intent, so it works without JavaScript), the 'Send Success' notice, and the code field.
 */
export function EmailAndCode({ email, code, sent }: { email: TextField; code: TextField; sent: boolean }) {
  const { t } = useTranslation();
  return (
    <>
      {sent ? (
        <p
          role="status"
          className="mb-4 rounded-md border border-green-200 bg-green-50 px-3 py-2 text-sm text-green-800"
          data-testid="notice"
        >
          {t("notify.sendSuccess")}
        </p>
      ) : null}
      <Field label={t("auth.email")} autoComplete="email" errors={email.errors} {...getInputProps(email, { type: "email" })}>
        <Button type="submit" name="intent" value="send-code" variant="outline" formNoValidate>
          {t("auth.sendCode")}
        </Button>
      </Field>
      <Field
        label={t("auth.code")}
        hint={t("auth.codeHint")}
        inputMode="numeric"
        autoComplete="one-time-code"
        errors={code.errors}
        {...getInputProps(code, { type: "text" })}
      />
    </>
  );
}

/** A new password and its confirmation. */
export function NewPassword({
  password,
  confirm,
  label,
}: {
  password: TextField;
  confirm: TextField;
  label: "auth.password" | "auth.newPassword";
}) {
  const { t } = useTranslation();
  return (
    <>
      <Field
        label={t(label)}
        hint={t("auth.passwordHint")}
        autoComplete="new-password"
        errors={password.errors}
        {...getInputProps(password, { type: "password" })}
      />
      <Field
        label={t("auth.confirmPassword")}
        autoComplete="new-password"
        errors={confirm.errors}
        {...getInputProps(confirm, { type: "password" })}
      />
    </>
  );
}
