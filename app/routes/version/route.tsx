import { useTranslation } from "react-i18next";
import { data, Link } from "react-router";
import { addVersionFromMultipart } from "~/.server/content/add-version-form";
import { licenseOptions } from "~/.server/content/licenses";
import { postedOf } from "~/.server/http/body";
import { attempt, Refused } from "~/.server/refused";
import { requireOwnItem } from "~/.server/web/auth/roles";
import { requireUser } from "~/.server/web/auth/session";
import { afterAnswer } from "~/.server/web/context";
import { flashRedirect } from "~/.server/web/shell/flash";
import { refusalReply } from "~/.server/web/shell/refusals";
import { RouteError } from "~/components/route-error";
import type { Route } from "./+types/route";
import { VersionForm } from "./version-form";

// /retrieval/detail/version?id=N: the owner publishes a new version of an item (decision 0042), on
// a page of its own, as research repositories do, so the item's page, which every member loads,
// carries none of the form's script (decision 0043 moved it here for the script budget).

const idOf = (request: Request) => Number(new URL(request.url).searchParams.get("id"));

export async function loader({ request, context }: Route.LoaderArgs) {
  const { item } = await requireOwnItem(request, context);
  return {
    item: { id: item.id, title: item.title, kind: item.kind, license: item.license },
    licenses: licenseOptions(item.license),
    // A fresh key on every render: the form's submission is stored once however often it arrives.
    formKey: crypto.randomUUID(),
  };
}

/** The new version streams its file in, read as an upload is; the item's page with it, or the form again with its refusals. */
export async function action({ request, context }: Route.ActionArgs) {
  const user = requireUser(request, context);
  const id = idOf(request);
  const added = await attempt(() => addVersionFromMultipart(postedOf(request), id, user.id, Date.now(), afterAnswer(context)));
  if (!(added instanceof Refused))
    return flashRedirect(request, `/retrieval/detail?id=${id}`, "success", `content.versionAdded|number=${added.number}`);
  const { reply, status } = refusalReply(undefined, added);
  return data({ version: reply }, { status });
}

export default function NewVersion({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const { item } = loaderData;
  return (
    <article className="mx-auto flex max-w-3xl flex-col gap-4">
      <title>{`${t("content.addVersionOf", { title: item.title })} - ${t("product.title")}`}</title>
      <h2 className="text-2xl font-semibold">{t("content.addVersionOf", { title: item.title })}</h2>
      <p>
        <Link to={`/retrieval/detail?id=${item.id}`} className="text-brand underline underline-offset-2">
          {t("content.backToItem")}
        </Link>
      </p>
      <VersionForm
        key={loaderData.formKey}
        formKey={loaderData.formKey}
        kind={item.kind}
        license={item.license}
        licenses={loaderData.licenses}
        reply={actionData?.version}
      />
    </article>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <RouteError error={error} />;
}
