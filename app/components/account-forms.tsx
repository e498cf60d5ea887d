import { getFormProps, getInputProps, type SubmissionResult, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { useTranslation } from "react-i18next";
import { Form } from "react-router";
import { Button } from "~/components/ui/button";
import { Field, FormErrors } from "~/components/ui/field";
import { LANGUAGE_SWITCH, type Language } from "~/lib/i18n";
import { changePasswordSchema } from "~/lib/schemas/auth";
import { useReplyCleared } from "~/lib/use-reply-cleared";

/** Changing the password while signed in (every other session ends). */
export function PasswordForm({ lastResult }: { lastResult: SubmissionResult | undefined }) {
  const { t } = useTranslation();
  const [form, fields] = useForm({
    id: "password",
    lastResult,
    onValidate: ({ formData }) => parseWithZod(formData, { schema: changePasswordSchema }),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
  });
  useReplyCleared(form, lastResult);
  return (
    <Form method="post" {...getFormProps(form)} data-testid="password-form" className="max-w-md">
      <input type="hidden" name="intent" value="password" />
      <FormErrors errors={form.errors} id={form.errorId} />
      <Field
        label={t("fields.currentPassword")}
        errors={fields.currentPassword.errors}
        autoComplete="current-password"
        {...getInputProps(fields.currentPassword, { type: "password" })}
      />
      <Field
        label={t("fields.newPassword")}
        errors={fields.password.errors}
        autoComplete="new-password"
        {...getInputProps(fields.password, { type: "password" })}
      />
      <Field
        label={t("fields.confirmPassword")}
        errors={fields.confirmPassword.errors}
        autoComplete="new-password"
        {...getInputProps(fields.confirmPassword, { type: "password" })}
      />
      <Button type="submit">{t("settings.changePassword")}</Button>
    </Form>
  );
}

/** The language pages and mail reach the member in, on every browser (the shell's switcher does the same). */
export function LanguageForm({ current }: { current: Language }) {
  const { t } = useTranslation();
  return (
    <Form method="post" action="/shell/locale" reloadDocument className="flex flex-wrap items-end gap-2" data-testid="language-form">
      <input type="hidden" name="redirectTo" value="/personal/Setting" />
      <div>
        <label htmlFor="settings-language" className="mb-1 block text-sm font-medium text-slate-700">
          {t("settings.language")}
        </label>
        <select
          id="settings-language"
          name="lang"
          defaultValue={current}
          className="h-9 rounded-md border border-slate-300 bg-white px-2 text-sm"
        >
          {LANGUAGE_SWITCH.map(({ lang, name }) => (
            <option key={lang} value={lang} lang={lang}>
              {name}
            </option>
          ))}
        </select>
      </div>
      <Button type="submit" variant="outline">
        {t("settings.saveLanguage")}
      </Button>
      <p className="w-full text-xs text-slate-500">{t("settings.languageHelp")}</p>
    </Form>
  );
}
