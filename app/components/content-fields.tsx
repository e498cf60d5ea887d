import { useTranslation } from "react-i18next";
import { translateError } from "~/lib/form-errors";
import type { LicenseInfo } from "~/lib/licenses";
import { ALL_RIGHTS_RESERVED, OTHER_LICENSE } from "~/lib/licenses";
import { SDG_NUMBERS, sdgKey } from "~/lib/sdg";
import { type FieldMetadata, getInputProps, getTextareaProps } from "~/lib/use-form";
import { Button } from "./ui/button";
import { Field, TextAreaField } from "./ui/field";

export function FieldErrors({ name, errors }: { name: string; errors?: string[] }) {
  const { t } = useTranslation();
  if (!errors?.length) return null;
  return (
    <p className="mt-1 text-sm text-red-600" data-testid={`error-${name}`}>
      {errors.map((e) => translateError(t, e)).join(" ")}
    </p>
  );
}

/** The 17 goals as a select; the empty option means "none chosen" (a form) or "all" (a filter). */
export function GoalSelect({ emptyLabel, ...props }: React.ComponentProps<"select"> & { emptyLabel: string }) {
  const { t } = useTranslation();
  return (
    <select className="h-9 rounded-md border border-slate-300 bg-white px-2 text-sm" {...props}>
      <option value="">{emptyLabel}</option>
      {SDG_NUMBERS.map((n) => (
        <option key={n} value={n}>
          {/* One text node: React separates several with comments, 17 times a page. */}
          {`${n}. ${t(sdgKey(n))}`}
        </option>
      ))}
    </select>
  );
}

/** The metadata the upload form and the owner's edit form share: goal, texts, keywords, DOI, co-authors, visibility. */
export function ContentMetadataFields({
  fields,
  notice,
  licenses,
  openRecords = false,
}: {
  fields: Record<
    | "sdg"
    | "title"
    | "summary"
    | "content"
    | "keywords"
    | "publicize"
    | "open_record"
    | "on_behalf"
    | "language"
    | "doi"
    | "authors"
    | "year"
    | "license"
    | "license_other",
    FieldMetadata
  >;
  /** Said once the form was filled from a DOI. */
  notice?: string | null;
  /** The licences to choose from (the loader's). */
  licenses: LicenseOptions | null;
  /** Whether the site lets owners open their items' records (OPEN_RECORDS; decision 0049). */
  openRecords?: boolean;
}) {
  const { t } = useTranslation();
  return (
    <>
      <div className="mb-4">
        <label htmlFor={fields.sdg.id} className="mb-1 block text-sm font-medium">
          {t("content.category")}
        </label>
        <GoalSelect
          id={fields.sdg.id}
          name={fields.sdg.name}
          defaultValue={String(fields.sdg.initialValue ?? "")}
          emptyLabel="—"
          className="h-9 w-full rounded-md border border-slate-300 bg-white px-2 text-sm"
        />
        <FieldErrors name="sdg" errors={fields.sdg.errors} />
      </div>
      <Field label={t("content.title")} errors={fields.title.errors} {...getInputProps(fields.title, { type: "text" })} />
      <Field
        label={t("content.language")}
        hint={t("content.languageHint")}
        errors={fields.language.errors}
        {...getInputProps(fields.language, { type: "text" })}
        autoComplete="off"
        spellCheck={false}
      />
      <TextAreaField label={t("content.summary")} errors={fields.summary.errors} {...getTextareaProps(fields.summary)} rows={3} />
      <TextAreaField label={t("content.content")} errors={fields.content.errors} {...getTextareaProps(fields.content)} rows={6} />
      <Field
        label={t("content.keywords")}
        hint={t("content.keywordsHint")}
        errors={fields.keywords.errors}
        {...getInputProps(fields.keywords, { type: "text" })}
      />
      <Field
        label={t("content.doi")}
        hint={t("content.doiHint")}
        errors={fields.doi.errors}
        {...getInputProps(fields.doi, { type: "text" })}
        autoComplete="off"
        spellCheck={false}
      >
        {/* Posts the form (urlencoded: no file goes with it) and gets it back filled in; nothing is saved. */}
        <Button
          type="submit"
          name="intent"
          value="prefill"
          variant="outline"
          formNoValidate
          formEncType="application/x-www-form-urlencoded"
          title={t("content.fillFromDoiHint")}
          data-testid="fill-from-doi"
        >
          {t("content.fillFromDoi")}
        </Button>
      </Field>
      {notice ? (
        <p role="status" className="-mt-2 mb-4 text-sm text-green-800" data-testid="doi-filled">
          {t(notice as "notify.doiFilled")}
        </p>
      ) : null}
      <Field
        label={t("content.year")}
        hint={t("content.yearHint")}
        inputMode="numeric"
        errors={fields.year.errors}
        {...getInputProps(fields.year, { type: "text" })}
        autoComplete="off"
      />
      <TextAreaField
        label={t("content.authors")}
        hint={t("content.authorsHint")}
        errors={fields.authors.errors}
        {...getTextareaProps(fields.authors)}
        rows={3}
      />
      <label className="-mt-2 mb-4 flex items-start gap-2 text-sm">
        <input
          type="checkbox"
          name={fields.on_behalf.name}
          value="1"
          defaultChecked={fields.on_behalf.initialValue === "1"}
          className="mt-1"
          data-testid="on-behalf"
        />
        {t("content.onBehalf")}
      </label>
      {licenses ? <LicenseSelect field={fields.license} other={fields.license_other} options={licenses} /> : null}
      <fieldset className="mb-4">
        <legend className="mb-1 text-sm font-medium">{t("content.publicize")}</legend>
        {(["1", "0"] as const).map((value) => (
          <label key={value} className="flex items-center gap-2 py-1 text-sm">
            <input type="radio" name={fields.publicize.name} value={value} defaultChecked={fields.publicize.initialValue === value} />
            {value === "1" ? t("content.public") : t("content.private")}
          </label>
        ))}
      </fieldset>
      {openRecords ? (
        <div className="mb-4">
          <label className="flex items-start gap-2 text-sm">
            <input
              type="checkbox"
              name={fields.open_record.name}
              value="1"
              defaultChecked={fields.open_record.initialValue === "1"}
              aria-describedby={`${fields.open_record.id}-hint`}
              className="mt-1"
              data-testid="open-record"
            />
            {t("content.openRecord")}
          </label>
          <p id={`${fields.open_record.id}-hint`} className="mt-1 text-xs text-slate-500">
            {t("content.openRecordHelp")}
          </p>
        </div>
      ) : null}
    </>
  );
}

/** A form with the licence select: it also holds the identifier typed for "Another licence". */
export type WithOtherLicense<Shape> = Shape & { license_other?: string };

export interface LicenseOptions {
  common: LicenseInfo[];
  /** The item's own licence when it is none of the common ones. */
  current: LicenseInfo | null;
}

/**
 * The licence (decision 0047): the common ones, the item's own if it is another, and "Another
 * licence" with its SPDX identifier typed below (the whole list was 3 KB of every form's page).
 * "Not specified" only while an old item has none.
 */
export function LicenseSelect({ field, other, options }: { field: FieldMetadata; other: FieldMetadata; options: LicenseOptions }) {
  const { t } = useTranslation();
  const name = (license: LicenseInfo) =>
    license.id === ALL_RIGHTS_RESERVED ? t("content.allRightsReserved") : `${license.name} (${license.id})`;
  return (
    <>
      <div className="mb-4">
        <label htmlFor={field.id} className="mb-1 block text-sm font-medium">
          {t("content.license")}
        </label>
        <select
          id={field.id}
          name={field.name}
          defaultValue={typeof field.initialValue === "string" ? field.initialValue : ""}
          className="h-9 w-full rounded-md border border-slate-300 bg-white px-2 text-sm"
          aria-describedby={`${field.id}-hint`}
        >
          {field.initialValue ? null : <option value="">{t("content.licenseNotSpecified")}</option>}
          {[...options.common, ...(options.current ? [options.current] : [])].map((license) => (
            <option key={license.id} value={license.id}>
              {name(license)}
            </option>
          ))}
          <option value={OTHER_LICENSE}>{t("content.licenseOther")}</option>
        </select>
        <p id={`${field.id}-hint`} className="mt-1 text-xs text-slate-500">
          {t("content.licenseHint")}
        </p>
        <FieldErrors name="license" errors={field.errors} />
      </div>
      <Field
        label={t("content.licenseOtherId")}
        hint={t("content.licenseOtherHint")}
        {...getInputProps(other, { type: "text" })}
        placeholder="GPL-2.0-only"
        autoComplete="off"
        spellCheck={false}
      >
        <a
          href="https://spdx.org/licenses/"
          className="self-center text-sm whitespace-nowrap text-brand underline underline-offset-2"
          target="_blank"
          rel="noopener noreferrer"
        >
          {t("content.licenseList")}
        </a>
      </Field>
    </>
  );
}
