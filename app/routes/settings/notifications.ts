import { redirect } from "react-router";
import type { SessionUser } from "~/.server/accounts/sessions";
import { deleteSavedSearch, followGoal } from "~/.server/notifications/new-items";
import { setChannels } from "~/.server/notifications/notifications";
import { requireUser } from "~/.server/web/auth/session";
import { flashRedirect } from "~/.server/web/shell/flash";
import { type Intents, runIntent } from "~/.server/web/shell/intents";
import { isNotificationChannel, NOTIFICATION_KINDS } from "~/lib/notifications";
import type { Route } from "./+types/notifications";

// /personal/Setting/notifications: the notifications section's forms post here (how each kind of
// notice reaches the member, the goals they follow, their saved searches) and go back to it.

const SECTION = "/personal/Setting?section=notifications";

interface Posted {
  request: Request;
  form: FormData;
  user: SessionUser;
}

const back = (request: Request) => flashRedirect(request, SECTION, "success", "notify.updateSuccess");

const intents = {
  /** Each kind's channel as chosen; a kind or channel it does not know is ignored. */
  notifications: async ({ request, form, user }: Posted) => {
    const channels = Object.fromEntries(
      NOTIFICATION_KINDS.flatMap((kind) => {
        const channel = String(form.get(`channel.${kind}`) ?? "");
        return isNotificationChannel(channel) ? [[kind, channel]] : [];
      }),
    );
    await setChannels(user.id, channels);
    return back(request);
  },
  "unfollow-goal": async ({ request, form, user }: Posted) => {
    await followGoal(user.id, Number(form.get("sdg")), false, Date.now());
    return back(request);
  },
  "delete-search": async ({ request, form, user }: Posted) => {
    await deleteSavedSearch(user.id, Number(form.get("id")));
    return back(request);
  },
} satisfies Intents<Posted>;

export async function action({ request, context }: Route.ActionArgs) {
  const user = requireUser(request, context);
  const form = await request.formData();
  return runIntent(intents, form.get("intent"), { request, form, user });
}

export const loader = () => redirect(SECTION);
