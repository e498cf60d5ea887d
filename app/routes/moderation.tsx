import { useTranslation } from "react-i18next";
import { data, Form, Link } from "react-router";
import { decide, moderated, openReports } from "~/.server/moderation/reports";
import { requireRole } from "~/.server/web/auth/roles";
import { afterAnswer } from "~/.server/web/context";
import { flashRedirect } from "~/.server/web/shell/flash";
import { PageTitle } from "~/components/page-title";
import { RelativeTime } from "~/components/relative-time";
import { Button } from "~/components/ui/button";
import type { ReportTarget } from "~/lib/choices";
import { decisionSchema } from "~/lib/schemas/report";
import type { Route } from "./+types/moderation";

/** The moderation queue: open reports, and what moderators hid or suspended (to undo). Moderators only. */
export async function loader({ request, context }: Route.LoaderArgs) {
  requireRole(request, context, "moderator");
  return { reports: await openReports(), ...(await moderated()), now: Date.now() };
}

export async function action({ request, context }: Route.ActionArgs) {
  const user = requireRole(request, context, "moderator");
  const parsed = decisionSchema.safeParse(Object.fromEntries(await request.formData()));
  if (!parsed.success) throw data(null, { status: 400 });
  if (!(await decide(user.id, parsed.data, Date.now(), afterAnswer(context)))) throw data(null, { status: 404 });
  return flashRedirect(request, "/moderation", "success", "safety.decided");
}

function Decide({ type, id, reason, actions }: { type: ReportTarget; id: number; reason: string; actions: string[] }) {
  const { t } = useTranslation();
  return (
    <Form method="post" className="flex flex-wrap gap-2">
      <input type="hidden" name="target_type" value={type} />
      <input type="hidden" name="target_id" value={id} />
      <input type="hidden" name="reason" value={reason} />
      {actions.map((action) => (
        <Button key={action} type="submit" name="action" value={action} variant={action === "dismiss" ? "ghost" : "outline"} size="sm">
          {t(`safety.${action}` as "safety.hide")}
        </Button>
      ))}
    </Form>
  );
}

function TargetLink({ type, id, contentId, children }: { type: ReportTarget; id: number; contentId: number | null; children: string }) {
  if (type === "member") return <Link to={`/personal?member=${id}`}>{children}</Link>;
  if (contentId) return <Link to={`/retrieval/detail?id=${contentId}`}>{children}</Link>;
  return <span>{children}</span>;
}

export default function Moderation({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const { reports, hidden, suspended, now } = loaderData;
  return (
    <div className="mx-auto flex max-w-4xl flex-col gap-6">
      <PageTitle titleKey="moderation" />
      <section>
        <h2 className="mb-2 font-medium">{t("safety.openReports")}</h2>
        {reports.length === 0 ? <p className="text-sm text-slate-500">{t("safety.noReports")}</p> : null}
        <ol className="flex flex-col gap-3" data-testid="reports">
          {reports.map((report) => (
            <li key={`${report.target_type}-${report.target_id}`} className="rounded-lg border border-slate-200 bg-white p-3 text-sm">
              <p className="text-xs text-slate-500">
                {t(`safety.targets.${report.target_type}`)} · {t(`safety.reasons.${report.reason}`)} ·{" "}
                {t("safety.reportCount", { count: report.reports })} · {t("safety.reportedBy", { name: report.reporter })} ·{" "}
                <RelativeTime date={new Date(report.first_at)} now={new Date(now)} />
              </p>
              <p className="my-1 whitespace-pre-wrap font-medium">
                <TargetLink type={report.target_type} id={report.target_id} contentId={report.content_id}>
                  {report.preview ?? "—"}
                </TargetLink>
              </p>
              {report.details ? <p className="mb-1 whitespace-pre-wrap text-slate-600">{report.details}</p> : null}
              {report.author ? (
                <p className="mb-2 text-xs text-slate-500">
                  {t("safety.author")}: <Link to={`/personal?member=${report.author_id}`}>{report.author}</Link>
                </p>
              ) : null}
              <Decide
                type={report.target_type}
                id={report.target_id}
                reason={report.reason}
                actions={report.target_type === "member" ? ["warn", "suspend", "dismiss"] : ["hide", "warn", "suspend", "dismiss"]}
              />
            </li>
          ))}
        </ol>
      </section>
      <UndoList
        title={t("safety.hiddenItems")}
        empty={t("safety.noneHidden")}
        testId="hidden"
        rows={hidden.map((item) => ({
          key: `${item.target_type}-${item.target_id}`,
          label: `${t(`safety.targets.${item.target_type}`)}: ${item.preview}`,
          undo: <Decide type={item.target_type} id={item.target_id} reason="other" actions={["restore"]} />,
        }))}
      />
      <UndoList
        title={t("safety.suspendedMembers")}
        empty={t("safety.noneSuspended")}
        testId="suspended"
        rows={suspended.map((member) => ({
          key: String(member.id),
          label: `${member.nick_name} · ${t(`safety.reasons.${member.suspended_reason}`)}`,
          undo: <Decide type="member" id={member.id} reason={member.suspended_reason} actions={["unsuspend"]} />,
        }))}
      />
    </div>
  );
}

/** What moderators did and may undo: a titled list of rows, each with its undo button. */
function UndoList({
  title,
  empty,
  testId,
  rows,
}: {
  title: string;
  empty: string;
  testId: string;
  rows: { key: string; label: string; undo: React.ReactNode }[];
}) {
  return (
    <section>
      <h2 className="mb-2 font-medium">{title}</h2>
      {rows.length === 0 ? <p className="text-sm text-slate-500">{empty}</p> : null}
      <ul className="flex flex-col gap-2" data-testid={testId}>
        {rows.map((row) => (
          <li key={row.key} className="flex flex-wrap items-center justify-between gap-2 text-sm">
            <span>{row.label}</span>
            {row.undo}
          </li>
        ))}
      </ul>
    </section>
  );
}
