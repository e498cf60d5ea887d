import { useTranslation } from "react-i18next";
import { Form } from "react-router";
import { FieldErrors } from "~/components/content-fields";
import { Button } from "~/components/ui/button";
import { Field, FormErrors, TextAreaField } from "~/components/ui/field";
import { SEXES } from "~/lib/choices";
import { PROFILE_LINE_MAX } from "~/lib/limits";
import type { ProfileInput } from "~/lib/schemas/profile";
import { type FormReply, getFormProps, getInputProps, getTextareaProps, useForm } from "~/lib/use-form";
import { useReplyCleared } from "~/lib/use-reply-cleared";

export type ProfileDefaults = Partial<Record<keyof ProfileInput, string | boolean>>;
type TextField = Exclude<keyof ProfileInput, "public" | "sex">;

/** The profile fields of spec section 3, every one required; a facilitator's has the organisation's too. */
export function ProfileForm({
  kind,
  defaults,
  countries,
  today,
  lastResult,
}: {
  kind: "individual" | "facilitator";
  defaults: ProfileDefaults;
  /** Every country's name in the page's language: the country fields suggest them as the member types. */
  countries: string[];
  today: string;
  lastResult: FormReply | undefined;
}) {
  const { t } = useTranslation();
  const [form, fields] = useForm({
    id: "profile",
    lastResult,
    defaultValue: defaults,
  });
  useReplyCleared(form, lastResult);
  const line = (name: TextField, type: "text" | "url" | "tel" | "email" | "date" = "text", extra = {}) => (
    <Field
      label={t(`fields.${name}`)}
      errors={fields[name].errors}
      maxLength={type === "date" ? undefined : PROFILE_LINE_MAX}
      {...getInputProps(fields[name], { type })}
      {...extra}
    />
  );
  const area = (name: TextField) => (
    <TextAreaField label={t(`fields.${name}`)} errors={fields[name].errors} rows={3} {...getTextareaProps(fields[name])} />
  );
  const select = (name: "sex", options: { value: string; label: string }[]) => (
    <div className="mb-4">
      <label htmlFor={fields[name].id} className="mb-1 block text-sm font-medium text-slate-700">
        {t(`fields.${name}`)}
      </label>
      <select
        id={fields[name].id}
        name={fields[name].name}
        key={fields[name].key}
        defaultValue={String(fields[name].initialValue ?? "")}
        aria-invalid={fields[name].errors ? true : undefined}
        className="h-9 w-full rounded-md border border-slate-300 bg-white px-2 text-sm aria-invalid:border-red-500"
      >
        <option value="">{t("settings.choose")}</option>
        {options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
      <FieldErrors name={name} errors={fields[name].errors} />
    </div>
  );
  return (
    <Form method="post" {...getFormProps(form)} data-testid="profile-form">
      <input type="hidden" name="intent" value="profile" />
      <FormErrors errors={form.errors} id={form.errorId} />
      <div className="grid gap-x-4 sm:grid-cols-2">
        {line("nickName")}
        {select(
          "sex",
          SEXES.map((sex) => ({ value: sex, label: t(`settings.sexOptions.${sex}`) })),
        )}
        {line("firstName")}
        {line("middleName")}
        {line("familyName")}
        {line("birthday", "date", { max: today })}
        {/* Typed and suggested from one list both share: a select of 250 would be read in full, twice. */}
        {line("country", "text", { list: "countries", autoComplete: "country-name" })}
        {line("nationality", "text", { list: "countries", autoComplete: "off" })}
        {line("phone", "tel", { placeholder: "+81 3 1234 5678" })}
        {line("website", "url", { placeholder: "https://" })}
        {line("orcid", "text", { placeholder: "0000-0000-0000-0000", autoComplete: "off", spellCheck: false })}
        {line("academic")}
      </div>
      <datalist id="countries">
        {countries.map((name) => (
          <option key={name} value={name} />
        ))}
      </datalist>
      {area("address")}
      {area("research")}
      {area("purpose")}
      {kind === "facilitator" ? (
        <fieldset className="mb-4 rounded-md border border-slate-200 p-3">
          <legend className="px-1 text-sm font-medium">{t("settings.organisation")}</legend>
          <div className="grid gap-x-4 sm:grid-cols-2">
            {line("abbreviation")}
            {line("industry")}
            {line("organisationPhone", "tel", { placeholder: "+81 3 1234 5678" })}
            {line("organisationEmail", "email")}
            {line("legal")}
          </div>
          {area("description")}
        </fieldset>
      ) : null}
      <label className="mb-4 flex items-start gap-2 text-sm">
        <input
          type="checkbox"
          name={fields.public.name}
          key={fields.public.key}
          defaultChecked={fields.public.initialValue === "on"}
          className="mt-1"
        />
        {t("settings.public")}
      </label>
      <Button type="submit">{t("settings.save")}</Button>
    </Form>
  );
}
