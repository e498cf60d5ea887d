import { requireUser } from "~/.server/web/auth/session";
import { runIntent } from "~/.server/web/shell/intents";
import type { PageHandle } from "~/lib/page-handle";
import type { Route } from "./+types/route";
import { intents } from "./intents.server";
import { settingsPage } from "./page.server";
import { sectionIn } from "./sections";
import { SettingsPage } from "./settings-page";

// The avatar's page has its cropper, the avatar module (docs/decisions/0046).
export const handle: PageHandle = { modules: (query) => (sectionIn(query) === "avatar" ? ["avatar"] : []) };

export function loader({ request, context }: Route.LoaderArgs) {
  return settingsPage(request, context, sectionIn(new URL(request.url).searchParams));
}

export async function action({ request, context }: Route.ActionArgs) {
  const user = requireUser(request, context);
  const form = await request.formData();
  return runIntent(intents, form.get("intent"), { request, context, form, user });
}

export default function Settings({ loaderData, actionData }: Route.ComponentProps) {
  return <SettingsPage loaderData={loaderData} actionData={actionData} />;
}
