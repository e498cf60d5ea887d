import { useTranslation } from "react-i18next";
import { Form } from "react-router";
import { decideVerification, verificationQueue } from "~/.server/members/verification";
import { Refused } from "~/.server/refused";
import { requireRole } from "~/.server/web/auth/roles";
import { afterAnswer } from "~/.server/web/context";
import { flashRedirect } from "~/.server/web/shell/flash";
import { refusalNotice } from "~/.server/web/shell/refusals";
import { PageTitle } from "~/components/page-title";
import { RelativeTime } from "~/components/relative-time";
import { Button } from "~/components/ui/button";
import { REJECTION_REASON_MAX } from "~/lib/limits";
import { reviewSchema } from "~/lib/schemas/verification";
import type { Route } from "./+types/review";

/** The reviewers' queue: pending identity verifications, oldest first, to approve or reject with a reason. */
export async function loader({ request, context }: Route.LoaderArgs) {
  requireRole(request, context, "reviewer");
  return { queue: await verificationQueue(), now: Date.now() };
}

export async function action({ request, context }: Route.ActionArgs) {
  const user = requireRole(request, context, "reviewer");
  const form = Object.fromEntries(await request.formData());
  const parsed = reviewSchema.safeParse(form);
  if (!parsed.success) return refusalNotice(request, "/review", new Refused("verification.reasonNeeded"));
  const id = Number(form.id);
  const decided = Number.isInteger(id) && (await decideVerification(user.id, id, parsed.data, Date.now(), afterAnswer(context)));
  // Decided already by another reviewer, or one's own: said, not an error page.
  if (!decided) return refusalNotice(request, "/review", new Refused("verification.notDecided", { status: 409 }));
  return flashRedirect(request, "/review", "success", "notify.verificationDecided");
}

export default function Review({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const { queue, now } = loaderData;
  return (
    <div className="mx-auto flex max-w-4xl flex-col gap-4">
      <PageTitle titleKey="review" />
      {queue.length === 0 ? <p className="text-slate-500">{t("verification.queueEmpty")}</p> : null}
      <ol className="flex flex-col gap-4" data-testid="review-queue">
        {queue.map((item) => (
          <li key={item.id} className="rounded-lg border border-slate-200 bg-white p-4" data-testid="submission">
            <p className="mb-2 text-sm text-slate-600">
              <span className="font-medium text-slate-900">{item.nick_name}</span> · {t(`verification.${item.kind}`)} ·{" "}
              <RelativeTime date={new Date(item.submitted_at)} now={new Date(now)} />
            </p>
            <dl className="mb-3 grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-sm">
              {Object.entries(item.fields).map(([name, value]) => (
                <div key={name} className="contents">
                  <dt className="text-slate-500">{t(`fields.${name}` as "fields.name")}</dt>
                  <dd>{value}</dd>
                </div>
              ))}
              {item.ror ? (
                <div className="contents">
                  <dt className="text-slate-500">{t("verification.rorRecord")}</dt>
                  <dd>
                    <a href={item.ror} target="_blank" rel="noopener" className="text-brand underline">
                      {item.ror}
                    </a>
                  </dd>
                </div>
              ) : null}
            </dl>
            <div className="mb-3 flex flex-wrap gap-3">
              {Object.keys(item.photos).map((name) => (
                <a
                  key={name}
                  href={`/personal/verification/photo?id=${item.id}&name=${name}`}
                  target="_blank"
                  rel="noopener"
                  className="text-sm text-brand"
                >
                  <img
                    src={`/personal/verification/photo?id=${item.id}&name=${name}`}
                    alt={t(`fields.${name.replace(/\d+$/, "")}` as "fields.idFront")}
                    className="h-32 w-auto rounded border border-slate-200"
                  />
                </a>
              ))}
            </div>
            <div className="flex flex-wrap items-end gap-3">
              <Form method="post" className="flex flex-wrap items-center gap-2">
                <input type="hidden" name="id" value={item.id} />
                {item.ror ? (
                  <label className="flex items-center gap-1 text-sm">
                    <input type="checkbox" name="confirm_ror" />
                    {t("verification.confirmRor")}
                  </label>
                ) : null}
                <Button type="submit" name="decision" value="approve">
                  {t("verification.approve")}
                </Button>
              </Form>
              <Form method="post" className="flex flex-wrap items-end gap-2">
                <input type="hidden" name="id" value={item.id} />
                <label className="text-sm">
                  <span className="mb-1 block">{t("verification.reason")}</span>
                  <input
                    name="reason"
                    required
                    maxLength={REJECTION_REASON_MAX}
                    className="h-9 w-72 rounded-md border border-slate-300 px-2"
                  />
                </label>
                <Button type="submit" name="decision" value="reject" variant="outline">
                  {t("verification.reject")}
                </Button>
              </Form>
            </div>
          </li>
        ))}
      </ol>
    </div>
  );
}
