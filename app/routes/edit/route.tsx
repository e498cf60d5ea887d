import { parseWithZod } from "@conform-to/zod/v4";
import { useTranslation } from "react-i18next";
import { data, Form, Link } from "react-router";
import type { z } from "zod";
import { config } from "~/.server/config/config";
import { shownItem, updateContent } from "~/.server/content/content";
import { licenseOptions } from "~/.server/content/licenses";
import { requireOwnItem } from "~/.server/web/auth/roles";
import { doiPrefillReply } from "~/.server/web/shell/doi-prefill-reply";
import { flashRedirect } from "~/.server/web/shell/flash";
import { type Intents, runIntent } from "~/.server/web/shell/intents";
import { ContentMetadataFields, type WithOtherLicense } from "~/components/content-fields";
import { RouteError } from "~/components/route-error";
import { Button } from "~/components/ui/button";
import { authorsText } from "~/lib/identifiers";
import { languageWarning } from "~/lib/item-languages";
import { chosenLicense } from "~/lib/licenses";
import { editContentSchema } from "~/lib/schemas/content";
import { getFormProps, useForm } from "~/lib/use-form";
import type { Route } from "./+types/route";

// /retrieval/detail/edit?id=N: the owner changes an item's details on a page of its own, as a new
// version is added (decision 0047): the item's page, which every member loads, carries no form.

const back = (id: number) => `/retrieval/detail?id=${id}`;

export async function loader({ request, context }: Route.LoaderArgs) {
  const { item } = await requireOwnItem(request, context);
  return { item: shownItem(item), licenses: licenseOptions(item.license), openRecords: config().openRecords };
}

interface EditIntent {
  request: Request;
  form: FormData;
  userId: number;
  itemId: number;
}

const intents = {
  /** The details saved: the item's page with a notice, or the form again with its refusals. */
  edit: async ({ request, form, userId, itemId }: EditIntent) => {
    if (form.has("license")) form.set("license", String(chosenLicense(form.get("license"), form.get("license_other"))));
    const submission = parseWithZod(form, { schema: editContentSchema });
    if (submission.status !== "success") return data({ result: submission.reply(), notice: null }, { status: 400 });
    if (!(await updateContent(itemId, userId, submission.value, Date.now()))) throw data(null, { status: 404 });
    const warning = languageWarning(submission.value);
    return flashRedirect(request, back(itemId), warning ? "info" : "success", warning ?? "notify.updateSuccess");
  },
  /** "Fill from DOI": the form filled in, nothing saved. */
  prefill: ({ form, userId }: EditIntent) => doiPrefillReply(form, userId),
} satisfies Intents<EditIntent>;

export async function action({ request, context }: Route.ActionArgs) {
  const { user, item } = await requireOwnItem(request, context);
  const form = await request.formData();
  return runIntent(intents, form.get("intent"), { request, form, userId: user.id, itemId: item.id });
}

export default function EditItem({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const { item, licenses } = loaderData;
  const [form, fields] = useForm<WithOtherLicense<z.input<typeof editContentSchema>>>({
    lastResult: actionData?.result,
    defaultValue: {
      sdg: String(item.sdg),
      title: item.title,
      summary: item.summary,
      content: item.content,
      keywords: item.keywords,
      publicize: String(item.publicize),
      open_record: String(item.open_record),
      on_behalf: String(item.on_behalf),
      language: item.language ?? "",
      doi: item.doi ?? "",
      authors: authorsText(item.authors),
      year: item.published_year ? String(item.published_year) : "",
      license: item.license ?? "",
    },
  });
  return (
    <article className="mx-auto flex max-w-3xl flex-col gap-4" data-testid="edit">
      <title>{`${t("content.editOf", { title: item.title })} - ${t("product.title")}`}</title>
      <h2 className="text-2xl font-semibold">{t("content.editOf", { title: item.title })}</h2>
      <p>
        <Link to={back(item.id)} className="text-brand underline underline-offset-2">
          {t("content.backToItem")}
        </Link>
        {" · "}
        <Link to={`/retrieval/detail/funding?id=${item.id}`} className="text-brand underline underline-offset-2" data-testid="edit-funding">
          {t("funding.link")}
        </Link>
      </p>
      <Form method="post" {...getFormProps(form)} className="rounded-lg border border-slate-200 bg-white p-4">
        {/* Enter in a field saves, not "Fill from DOI". */}
        <button type="submit" name="intent" value="edit" className="sr-only" tabIndex={-1} aria-hidden />
        <ContentMetadataFields
          fields={fields}
          licenses={licenses}
          openRecords={loaderData.openRecords}
          notice={actionData && "notice" in actionData ? actionData.notice : null}
        />
        <Button type="submit" name="intent" value="edit">
          {t("content.save")}
        </Button>
      </Form>
    </article>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <RouteError error={error} />;
}
