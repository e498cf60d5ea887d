import { useTranslation } from "react-i18next";
import { Form } from "react-router";
import type { z } from "zod";
import { FieldErrors } from "~/components/content-fields";
import { Button, buttonVariants } from "~/components/ui/button";
import { Field, FormErrors } from "~/components/ui/field";
import { LANGUAGE_SWITCH, type Language } from "~/lib/i18n";
import type { changePasswordSchema, deleteAccountSchema } from "~/lib/schemas/auth";
import { type FormReply, getFormProps, getInputProps, useForm } from "~/lib/use-form";
import { useReplyCleared } from "~/lib/use-reply-cleared";

/** Changing the password while signed in (every other session ends). */
export function PasswordForm({ lastResult }: { lastResult: FormReply | undefined }) {
  const { t } = useTranslation();
  const [form, fields] = useForm<z.input<typeof changePasswordSchema>>({
    id: "password",
    lastResult,
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

/** Download my data, and delete my account (with the password and a confirmation). */
export function DataControls({ lastResult }: { lastResult: FormReply | undefined }) {
  const { t } = useTranslation();
  const [form, fields] = useForm<z.input<typeof deleteAccountSchema>>({
    id: "delete-account",
    lastResult,
  });
  useReplyCleared(form, lastResult);
  return (
    <>
      <p className="mb-2 text-sm text-slate-600">{t("settings.exportHelp")}</p>
      <a href="/personal/export" download className={buttonVariants({ variant: "outline" })} data-testid="export">
        {t("settings.export")}
      </a>
      <h3 className="mt-6 mb-1 font-medium text-red-700">{t("settings.deleteAccount")}</h3>
      <p className="mb-3 text-sm text-slate-600">{t("settings.deleteHelp")}</p>
      <Form method="post" action="/personal/Setting/delete" {...getFormProps(form)} data-testid="delete-form" className="max-w-md">
        <input type="hidden" name="intent" value="delete-account" />
        <FormErrors errors={form.errors} id={form.errorId} />
        <Field
          label={t("fields.currentPassword")}
          errors={fields.password.errors}
          autoComplete="current-password"
          {...getInputProps(fields.password, { type: "password" })}
        />
        <label className="mb-1 flex items-start gap-2 text-sm">
          <input type="checkbox" name={fields.confirm.name} key={fields.confirm.key} className="mt-1" />
          {t("settings.deleteConfirm")}
        </label>
        <FieldErrors name="confirm" errors={fields.confirm.errors} />
        <Button type="submit" variant="danger" className="mt-3">
          {t("settings.deleteAccount")}
        </Button>
      </Form>
    </>
  );
}

/** The language pages and mail reach the member in, on every browser (the shell's switcher does the same). */
export function LanguageForm({ current }: { current: Language }) {
  const { t } = useTranslation();
  return (
    <Form method="post" action="/shell/locale" reloadDocument className="flex flex-wrap items-end gap-2" data-testid="language-form">
      <input type="hidden" name="redirectTo" value="/personal/Setting?section=account" />
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
