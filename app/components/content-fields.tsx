import { type FieldMetadata, getInputProps, getTextareaProps } from "@conform-to/react";
import { useTranslation } from "react-i18next";
import { translateError } from "~/lib/form-errors";
import { SDG_NUMBERS, sdgKey } from "~/lib/sdg";
import { Field } from "./ui/field";

type Meta = FieldMetadata<unknown>;

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
          {n}. {t(sdgKey(n))}
        </option>
      ))}
    </select>
  );
}

/** The metadata the upload form and the owner's edit form share: goal, texts, keywords, DOI, co-authors, visibility. */
export function ContentMetadataFields({
  fields,
}: {
  fields: Record<"sdg" | "title" | "summary" | "content" | "keywords" | "publicize" | "doi" | "authors", Meta>;
}) {
  const { t } = useTranslation();
  const text = (field: Meta) => field as FieldMetadata<string | undefined>;
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
      <Field label={t("content.title")} errors={fields.title.errors} {...getInputProps(text(fields.title), { type: "text" })} />
      <TextAreaField label={t("content.summary")} errors={fields.summary.errors} {...getTextareaProps(text(fields.summary))} rows={3} />
      <TextAreaField label={t("content.content")} errors={fields.content.errors} {...getTextareaProps(text(fields.content))} rows={6} />
      <Field
        label={t("content.keywords")}
        hint={t("content.keywordsHint")}
        errors={fields.keywords.errors}
        {...getInputProps(text(fields.keywords), { type: "text" })}
      />
      <Field
        label={t("content.doi")}
        hint={t("content.doiHint")}
        errors={fields.doi.errors}
        {...getInputProps(text(fields.doi), { type: "text" })}
        autoComplete="off"
        spellCheck={false}
      />
      <TextAreaField
        label={t("content.authors")}
        errors={fields.authors.errors}
        aria-describedby={`${fields.authors.id}-hint`}
        {...getTextareaProps(text(fields.authors))}
        rows={3}
      />
      <p id={`${fields.authors.id}-hint`} className="-mt-3 mb-4 text-xs text-slate-500">
        {t("content.authorsHint")}
      </p>
      <fieldset className="mb-4">
        <legend className="mb-1 text-sm font-medium">{t("content.publicize")}</legend>
        {(["1", "0"] as const).map((value) => (
          <label key={value} className="flex items-center gap-2 py-1 text-sm">
            <input type="radio" name={fields.publicize.name} value={value} defaultChecked={fields.publicize.initialValue === value} />
            {value === "1" ? t("content.public") : t("content.private")}
          </label>
        ))}
      </fieldset>
    </>
  );
}

/** A labelled text area with its translated errors (the Field of multi-line text). */
export function TextAreaField({ label, errors, id, ...props }: React.ComponentProps<"textarea"> & { label: string; errors?: string[] }) {
  return (
    <div className="mb-4">
      <label htmlFor={id} className="mb-1 block text-sm font-medium text-slate-700">
        {label}
      </label>
      <textarea id={id} className="w-full rounded-md border border-slate-300 bg-white px-3 py-2 text-sm" {...props} />
      <FieldErrors name={props.name ?? ""} errors={errors} />
    </div>
  );
}
