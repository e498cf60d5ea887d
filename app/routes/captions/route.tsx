import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { captionsRead } from "~/.server/content/captions";
import { readOne } from "~/.server/reads";
import { attempt, Refused } from "~/.server/refused";
import { requireUser } from "~/.server/web/auth/session";
import { runIntent } from "~/.server/web/shell/intents";
import { RouteError } from "~/components/route-error";
import type { Route } from "./+types/route";
import { CaptionsForm } from "./captions-form";
import { captionsRefused, intents, ownVideo, postedForm } from "./intents.server";

// /retrieval/detail/captions?id=N: the owner's captions of a video (decision 0043), on a page of
// their own so the video's page, which every member loads, carries none of the forms' script.

const idOf = (request: Request) => Number(new URL(request.url).searchParams.get("id"));

export async function loader({ request, context }: Route.LoaderArgs) {
  const user = requireUser(request, context);
  const item = await ownVideo(idOf(request), user.id);
  return { item: { id: item.id, title: item.title }, captions: await readOne(captionsRead(item.id)) };
}

export async function action({ request, context }: Route.ActionArgs) {
  const user = requireUser(request, context);
  const { id } = await ownVideo(idOf(request), user.id);
  const form = await attempt(() => postedForm(request));
  if (form instanceof Refused) return captionsRefused(form);
  return runIntent(intents, form.get("intent"), { request, form, id });
}

export default function Captions({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const { item, captions } = loaderData;
  return (
    <article className="mx-auto flex max-w-3xl flex-col gap-4">
      <title>{`${t("content.captionsOf", { title: item.title })} - ${t("product.title")}`}</title>
      <h2 className="text-2xl font-semibold">{t("content.captionsOf", { title: item.title })}</h2>
      <p>
        <Link to={`/retrieval/detail?id=${item.id}`} className="text-brand underline underline-offset-2">
          {t("content.captionsBack")}
        </Link>
      </p>
      <CaptionsForm id={item.id} captions={captions} reply={actionData?.captions} />
    </article>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <RouteError error={error} />;
}
