import { useTranslation } from "react-i18next";
import { Form, useLocation } from "react-router";
import { REPORT_REASONS, type ReportTarget } from "~/lib/choices";
import { REPORT_DETAILS_MAX } from "~/lib/limits";
import { Button } from "./ui/button";

/** "Report": a disclosure with the reason and optional details; posts to /report and comes back here. */
export function ReportForm({ target, id }: { target: ReportTarget; id: number }) {
  const { t } = useTranslation();
  const location = useLocation();
  const name = `report-${target}-${id}`;
  return (
    <details className="text-sm" data-testid={name}>
      <summary className="cursor-pointer text-slate-600 hover:text-slate-800">{t("safety.report")}</summary>
      <Form method="post" action="/report" className="mt-2 grid max-w-md gap-2 rounded border bg-white p-3">
        <input type="hidden" name="target_type" value={target} />
        <input type="hidden" name="target_id" value={id} />
        <input type="hidden" name="back" value={location.pathname + location.search} />
        <p className="font-medium">{t("safety.reportHeading")}</p>
        <label className="grid gap-1">
          {t("safety.reason")}
          <select name="reason" required className="rounded border px-2 py-1" defaultValue="">
            <option value="" disabled>
              —
            </option>
            {REPORT_REASONS.map((reason) => (
              <option key={reason} value={reason}>
                {t(`safety.reasons.${reason}`)}
              </option>
            ))}
          </select>
        </label>
        <label className="grid gap-1">
          {t("safety.details")}
          <textarea name="details" maxLength={REPORT_DETAILS_MAX} rows={2} className="rounded border px-2 py-1" />
        </label>
        <Button type="submit" variant="outline" size="sm">
          {t("safety.sendReport")}
        </Button>
      </Form>
    </details>
  );
}
