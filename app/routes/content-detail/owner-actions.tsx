import { useTranslation } from "react-i18next";
import { Form } from "react-router";
import type { z } from "zod";
import { ContentMetadataFields, type LicenseOptions } from "~/components/content-fields";
import { Button } from "~/components/ui/button";
import { authorsText } from "~/lib/identifiers";
import type { editContentSchema } from "~/lib/schemas/content";
import { getFormProps, useForm } from "~/lib/use-form";
import type { Route } from "./+types/route";

type Shown = Route.ComponentProps["loaderData"]["item"];

/** The owner's edit form (a disclosure, no JavaScript needed) and delete with confirmation. */
export function OwnerActions({
  item,
  actionData,
  licenses,
}: {
  item: Shown;
  actionData: Route.ComponentProps["actionData"];
  licenses: LicenseOptions | null;
}) {
  const { t } = useTranslation();
  const [form, fields] = useForm<z.input<typeof editContentSchema>>({
    lastResult: actionData?.result,
    defaultValue: {
      sdg: String(item.sdg),
      title: item.title,
      summary: item.summary,
      content: item.content,
      keywords: item.keywords,
      publicize: String(item.publicize),
      doi: item.doi ?? "",
      authors: authorsText(item.authors),
      year: item.published_year ? String(item.published_year) : "",
      license: item.license ?? "",
    },
  });
  return (
    <div className="mt-4 flex flex-col gap-3">
      <details className="rounded-lg border border-slate-200 bg-white p-4" open={Boolean(actionData?.result)} data-testid="edit">
        <summary className="font-medium">{t("content.edit")}</summary>
        <Form method="post" {...getFormProps(form)} className="mt-3">
          {/* Enter in a field saves, not "Fill from DOI". */}
          <button type="submit" name="intent" value="edit" className="sr-only" tabIndex={-1} aria-hidden />
          <ContentMetadataFields
            fields={fields}
            licenses={licenses}
            notice={actionData && "notice" in actionData ? actionData.notice : null}
          />
          <Button type="submit" name="intent" value="edit">
            {t("content.save")}
          </Button>
        </Form>
      </details>
      {/* With JavaScript a dialog asks (the shell module reads data-confirm); without, the server asks once more. */}
      <Form method="post" data-confirm={t("content.deleteConfirm")}>
        {actionData?.confirmDelete ? (
          <p role="alert" className="mb-2 text-sm text-red-700" data-testid="delete-question">
            {t("content.deleteConfirm")}
          </p>
        ) : null}
        <input type="hidden" name="confirm" value={actionData?.confirmDelete ? "1" : ""} />
        <Button type="submit" name="intent" value="delete" variant="outline" className="text-red-700" data-testid="delete">
          {t("content.delete")}
        </Button>
      </Form>
    </div>
  );
}
