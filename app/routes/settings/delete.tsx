import { parseWithZod } from "@conform-to/zod/v4";
import { data } from "react-router";
import { deleteAccount } from "~/.server/accounts/delete-account";
import { attempt, Refused } from "~/.server/refused";
import { callerFrom } from "~/.server/web/auth/caller";
import { clearTokenCookie } from "~/.server/web/auth/cookies";
import { invalid } from "~/.server/web/auth/form-actions";
import { requireUser } from "~/.server/web/auth/session";
import { flashRedirect } from "~/.server/web/shell/flash";
import { type Intents, runIntent } from "~/.server/web/shell/intents";
import { refusalReply } from "~/.server/web/shell/refusals";
import { deleteAccountSchema } from "~/lib/schemas/auth";
import type { Route } from "./+types/delete";
import { settingsPage } from "./page.server";
import { SettingsPage } from "./settings-page";

// /personal/Setting/delete: the account section's deletion form posts here. Refused (the password,
// the box unticked), it is the account section again with the reply beside the fields; done, the
// member is signed out on the login page.

export function loader({ request, context }: Route.LoaderArgs) {
  return settingsPage(request, context, "account");
}

interface Posted {
  request: Request;
  context: Route.ActionArgs["context"];
  form: FormData;
}

const intents = {
  "delete-account": async ({ request, context, form }: Posted) => {
    const user = requireUser(request, context);
    const submission = parseWithZod(form, { schema: deleteAccountSchema });
    if (submission.status !== "success") return data({ deletion: invalid(submission).data.result }, { status: 400 });
    const deleted = await attempt(() => deleteAccount(user.id, submission.value.password, callerFrom(request, context)));
    if (deleted instanceof Refused) {
      const { reply, status } = refusalReply(submission, deleted);
      return data({ deletion: reply }, { status });
    }
    const headers = new Headers([["Set-Cookie", clearTokenCookie(request)]]);
    return flashRedirect(request, "/login", "info", "notify.accountDeleted", { headers });
  },
} satisfies Intents<Posted>;

export async function action({ request, context }: Route.ActionArgs) {
  const form = await request.formData();
  return runIntent(intents, form.get("intent"), { request, context, form });
}

export default function DeleteAccount({ loaderData, actionData }: Route.ComponentProps) {
  return <SettingsPage loaderData={loaderData} actionData={actionData} />;
}
