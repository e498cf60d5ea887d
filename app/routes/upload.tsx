import { useTranslation } from "react-i18next";
import { data, Form, useLocation } from "react-router";
import type { z } from "zod";
import { orcidEnabled, orcidWorks } from "~/.server/accounts/orcid";
import { config } from "~/.server/config/config";
import { createFromMultipart } from "~/.server/content/create-from-form";
import { licenseOptions } from "~/.server/content/licenses";
import { postedOf } from "~/.server/http/body";
import { attempt, Refused } from "~/.server/refused";
import { requireUser } from "~/.server/web/auth/session";
import { afterAnswer } from "~/.server/web/context";
import { doiPrefillReply, prefilledForm } from "~/.server/web/shell/doi-prefill-reply";
import { flashRedirect } from "~/.server/web/shell/flash";
import { refusalReply } from "~/.server/web/shell/refusals";
import { CaptionFields } from "~/components/caption-fields";
import { ContentMetadataFields, FieldErrors, type WithOtherLicense } from "~/components/content-fields";
import { OrcidWorks } from "~/components/orcid-works";
import { PageTitle } from "~/components/page-title";
import { PartsProgress } from "~/components/parts-progress";
import { Button } from "~/components/ui/button";
import { Field, FormErrors } from "~/components/ui/field";
import { DEFAULT_LICENSE } from "~/lib/licenses";
import type { PageHandle } from "~/lib/page-handle";
import type { uploadFormSchema } from "~/lib/schemas/content";
import { type FormReply, getFormProps, getInputProps, useForm } from "~/lib/use-form";
import type { Route } from "./+types/upload";

/**
 * One multipart post (works without JavaScript): the file streams to R2 while it arrives and is
 * judged by its bytes; a refused or invalid upload leaves nothing behind and keeps what was typed.
 */
export async function action({ request, context }: Route.ActionArgs) {
  const user = requireUser(request, context);
  // "Fill from DOI" posts the form urlencoded (no file): it comes back filled in, nothing stored.
  if (request.headers.get("Content-Type")?.startsWith("application/x-www-form-urlencoded")) {
    const form = await request.clone().formData();
    if (form.get("intent") === "prefill") return doiPrefillReply(form, user.id);
  }
  const created = await attempt(() => createFromMultipart(postedOf(request), user.id, Date.now(), afterAnswer(context)));
  if (created instanceof Refused) {
    const { reply, status } = refusalReply(undefined, created);
    return data({ result: reply, notice: null }, { status });
  }
  const page = created.thenFunding ? `/retrieval/detail/funding?id=${created.id}` : `/retrieval/detail?id=${created.id}`;
  return flashRedirect(request, page, created.warning ? "info" : "success", created.warning ?? "content.uploaded");
}

const FORM_DEFAULTS = { kind: "document", publicize: "1", license: DEFAULT_LICENSE };

/**
 * A key for this rendering of the form (posted twice, it still makes one item). An upload started
 * from an ORCID work arrives filled in: from its DOI (`?doi=`), or its title and year; `?from=orcid`
 * lists the member's works to start from.
 */
// The file goes up in resumable parts with progress, from the uploads module (docs/decisions/0046).
export const handle: PageHandle = { modules: ["uploads"] };

export async function loader({ request, context }: Route.LoaderArgs) {
  const user = requireUser(request, context);
  const query = new URL(request.url).searchParams;
  const linked = orcidEnabled() && user.orcid ? user.orcid : null;
  const works = linked && query.get("from") === "orcid" ? await attempt(() => orcidWorks(linked)) : null;
  const doi = query.get("doi");
  const title = query.get("title");
  // The form's defaults under what the work fills in (a started form replaces the defaults whole).
  const start = doi
    ? await prefilledForm({ ...FORM_DEFAULTS, doi }, user.id)
    : title
      ? { result: { initialValue: { ...FORM_DEFAULTS, title, year: query.get("year") ?? "" } } satisfies FormReply, notice: null }
      : null;
  return {
    formKey: crypto.randomUUID(),
    licenses: licenseOptions(),
    openRecords: config().openRecords,
    linked: Boolean(linked),
    works: works instanceof Refused ? { refused: works.key } : works,
    start,
  };
}

/** A new query (an upload started from another ORCID work) starts the form again from it. */
export default function Upload(props: Route.ComponentProps) {
  return <UploadForm key={useLocation().search} {...props} />;
}

function UploadForm({ actionData, loaderData }: Route.ComponentProps) {
  const { t, i18n } = useTranslation();
  const [form, fields] = useForm<WithOtherLicense<z.input<typeof uploadFormSchema>>>({
    lastResult: actionData?.result ?? loaderData.start?.result,
    // A work is most often written in its uploader's language: theirs is offered first.
    defaultValue: { ...FORM_DEFAULTS, language: i18n.language },
  });
  return (
    <>
      <PageTitle titleKey="upload" />
      {loaderData.linked ? <OrcidWorks works={loaderData.works} /> : null}
      <Form
        method="post"
        encType="multipart/form-data"
        {...getFormProps(form)}
        data-parts-upload
        className="max-w-2xl rounded-lg border border-slate-200 bg-white p-6"
      >
        <input type="hidden" name="client_key" value={loaderData.formKey} />
        {/* Enter in a field uploads, not "Fill from DOI". */}
        <button type="submit" className="sr-only" tabIndex={-1} aria-hidden />
        <FormErrors errors={form.errors} id={form.errorId} />
        <fieldset className="mb-4">
          <legend className="mb-1 text-sm font-medium">{t("content.kind")}</legend>
          <div className="flex gap-4">
            {(["document", "video"] as const).map((kind) => (
              <label key={kind} className="flex items-center gap-2 text-sm">
                <input type="radio" name={fields.kind.name} value={kind} defaultChecked={fields.kind.initialValue === kind} />
                {t(`content.${kind}`)}
              </label>
            ))}
          </div>
          <FieldErrors name="kind" errors={fields.kind.errors} />
        </fieldset>
        <ContentMetadataFields
          fields={fields}
          licenses={loaderData.licenses}
          openRecords={loaderData.openRecords}
          notice={actionData ? actionData.notice : loaderData.start?.notice}
        />
        {/* Funding is named on the item's funding page, where the registry is searched (decision 0052). */}
        <label className="mb-4 flex items-center gap-2 text-sm">
          <input type="checkbox" name="then_funding" value="1" />
          {t("funding.next")}
        </label>
        {/* Files last, so the text fields arrive first in the stream. */}
        <Field
          label={t("content.file")}
          hint={`${t("content.fileHintDocument")} · ${t("content.fileHintVideo")}`}
          accept="application/pdf,video/mp4,.pdf,.mp4"
          errors={fields.file.errors}
          {...getInputProps(fields.file, { type: "file" })}
        />
        <Field
          label={t("content.thumbnail")}
          hint={t("content.thumbnailHint")}
          accept="image/png,image/jpeg"
          errors={fields.thumbnail.errors}
          {...getInputProps(fields.thumbnail, { type: "file" })}
        />
        <fieldset className="mb-4 rounded border border-slate-200 p-3">
          <legend className="px-1 text-sm font-medium">{t("content.captionsAtUpload")}</legend>
          <CaptionFields lang={fields.captions_lang} file={fields.captions} />
        </fieldset>
        <PartsProgress />
        <Button type="submit" data-upload-submit>
          {t("content.submit")}
        </Button>
      </Form>
    </>
  );
}
