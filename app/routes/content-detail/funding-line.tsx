import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import type { Funding } from "~/.server/content/funding";

/** Who funded the work (decision 0052): each funder, linked to the research it funded (or to the member it is) and to its ROR record where it has one, and the award. */
export function FundingLine({ funding }: { funding: Funding[] }) {
  const { t } = useTranslation();
  return (
    <p className="text-sm text-slate-600" data-testid="funding">
      {t("funding.fundedBy")}:{" "}
      {funding.map((f, i) => (
        <span key={f.id}>
          {i ? "; " : ""}
          {f.funder_id || f.funder_member ? (
            <Link
              to={f.funder_id ? `/retrieval?funder=${encodeURIComponent(f.funder_id)}` : `/personal?member=${f.funder_member}`}
              className="text-brand underline underline-offset-2"
            >
              {f.funder_name}
            </Link>
          ) : (
            f.funder_name
          )}
          {f.funder_id_type === "ROR" && f.funder_id ? (
            <>
              {" "}
              <a href={f.funder_id} className="text-xs text-brand underline">
                ROR
              </a>
            </>
          ) : null}
          {f.award_number ? ` (${f.award_number})` : ""}
          {f.state === "confirmed" ? ` · ${t("funding.confirmed")}` : ""}
        </span>
      ))}
    </p>
  );
}
