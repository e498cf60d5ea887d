import { redirect } from "react-router";
import { fileReport } from "~/.server/moderation/reports";
import { attempt, Refused } from "~/.server/refused";
import { requireUser } from "~/.server/web/auth/session";
import { flashRedirect } from "~/.server/web/shell/flash";
import { refusalNotice } from "~/.server/web/shell/refusals";
import { safeRedirect } from "~/lib/safe-redirect";
import { reportSchema } from "~/lib/schemas/report";
import type { Route } from "./+types/report";

/**
 * POST /report: the report forms on uploads, comments, messages and member pages post here and go
 * back where they came from with a notice (a form, so it works without JavaScript).
 */
export async function action({ request, context }: Route.ActionArgs) {
  const user = requireUser(request, context);
  const form = await request.formData();
  const back = safeRedirect(form.get("back"));
  const parsed = reportSchema.safeParse(Object.fromEntries(form));
  if (!parsed.success) return refusalNotice(request, back, Refused.fromIssues(parsed.error.issues));
  const filed = await attempt(() => fileReport(user.id, parsed.data, Date.now()));
  if (filed instanceof Refused) return refusalNotice(request, back, filed);
  return flashRedirect(request, back, "success", "safety.reportReceived");
}

export const loader = () => redirect("/home");
