import { redirect } from "react-router";
import { unlinkOrcid } from "~/.server/accounts/orcid";
import { attempt, Refused } from "~/.server/refused";
import { requireUser } from "~/.server/web/auth/session";
import { flashRedirect } from "~/.server/web/shell/flash";
import { type Intents, runIntent } from "~/.server/web/shell/intents";
import { refusalNotice } from "~/.server/web/shell/refusals";
import type { Route } from "./+types/orcid";

// /personal/Setting/orcid: the account section's ORCID form posts here (linking starts at
// /auth/orcid) and goes back to it.

const SECTION = "/personal/Setting?section=account#orcid";

const intents = {
  /** Refused while ORCID is the account's only way in (no password). */
  "unlink-orcid": async ({ request, userId }: { request: Request; userId: number }) => {
    const unlinked = await attempt(() => unlinkOrcid(userId));
    if (unlinked instanceof Refused) return refusalNotice(request, SECTION, unlinked);
    return flashRedirect(request, SECTION, "success", "notify.orcidUnlinked");
  },
} satisfies Intents<{ request: Request; userId: number }>;

export async function action({ request, context }: Route.ActionArgs) {
  const user = requireUser(request, context);
  const form = await request.formData();
  return runIntent(intents, form.get("intent"), { request, userId: user.id });
}

export const loader = () => redirect(SECTION);
