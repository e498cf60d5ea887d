import { useTranslation } from "react-i18next";
import { type LicenseOptions, LicenseSelect } from "~/components/content-fields";
import { Button } from "~/components/ui/button";
import { Field, FormErrors, TextAreaField } from "~/components/ui/field";
import { type FormReply, getFormProps, getInputProps, getTextareaProps, useForm } from "~/lib/use-form";

/**
 * The owner's new version: a new file of the item's kind, a note of what changed, the licence it is
 * published under, its own DOI, a thumbnail if it changes. A plain form post, streamed as it is sent,
 * with or without JavaScript (the resumable parts path is the upload page's and the API's).
 */
export function VersionForm({
  formKey,
  kind,
  license,
  licenses,
  reply,
}: {
  formKey: string;
  kind: "document" | "video";
  license: string | null;
  licenses: LicenseOptions;
  reply: FormReply | undefined;
}) {
  const { t } = useTranslation();
  const [form, fields] = useForm<{ note: string; license: string; license_other: string; doi: string; file: unknown; thumbnail: unknown }>({
    id: "add-version-form",
    lastResult: reply,
    defaultValue: { license: license ?? "" },
  });
  return (
    <section className="rounded-lg border border-slate-200 bg-white p-4" data-testid="version-form">
      <p className="mb-3 text-sm text-slate-600">{t("content.addVersionHelp")}</p>
      <form method="post" encType="multipart/form-data" {...getFormProps(form)}>
        <input type="hidden" name="client_key" value={formKey} />
        <FormErrors errors={form.errors} id={form.errorId} />
        <TextAreaField label={t("content.versionNote")} errors={fields.note.errors} {...getTextareaProps(fields.note)} rows={2} />
        <LicenseSelect field={fields.license} other={fields.license_other} options={licenses} />
        <Field
          label={t("content.versionDoi")}
          errors={fields.doi.errors}
          {...getInputProps(fields.doi, { type: "text" })}
          autoComplete="off"
          spellCheck={false}
        />
        <Field
          label={t("content.file")}
          hint={kind === "document" ? t("content.fileHintDocument") : t("content.fileHintVideo")}
          accept={kind === "document" ? "application/pdf,.pdf" : "video/mp4,.mp4"}
          errors={fields.file.errors}
          {...getInputProps(fields.file, { type: "file" })}
        />
        <Field
          label={t("content.versionThumbnail")}
          accept="image/png,image/jpeg"
          errors={fields.thumbnail.errors}
          {...getInputProps(fields.thumbnail, { type: "file" })}
        />
        <Button type="submit">{t("content.versionSubmit")}</Button>
      </form>
    </section>
  );
}
