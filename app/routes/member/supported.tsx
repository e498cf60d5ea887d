import { useTranslation } from "react-i18next";
import { Form, Link } from "react-router";
import type { SupportedWork } from "~/.server/content/funding";
import { Button } from "~/components/ui/button";

/** "Research we supported" (decision 0052): works naming the organisation or the member as funder; on its own Space, confirm or decline each. */
export function Supported({ works, self }: { works: SupportedWork[]; self: boolean }) {
  const { t } = useTranslation();
  return (
    <section data-testid="supported">
      <h2 className="mb-2 font-medium">{t("funding.supported")}</h2>
      <ul className="flex flex-col gap-2 text-sm">
        {works.map((work) => (
          <li key={work.funding_id} className="flex flex-wrap items-center gap-2 rounded border border-slate-200 bg-white p-2">
            <Link to={`/retrieval/detail?id=${work.content_id}`} className="text-brand underline underline-offset-2">
              {work.title}
            </Link>
            <span className="text-slate-600">
              {work.owner_name}
              {work.award_number ? ` · ${work.award_number}` : ""} · {t(work.state === "confirmed" ? "funding.confirmed" : "funding.named")}
            </span>
            {self && work.state === "named" ? (
              <Form method="post" className="flex gap-1">
                <input type="hidden" name="funding" value={work.funding_id} />
                <Button type="submit" name="intent" value="confirm-funding" size="sm">
                  {t("funding.confirm")}
                </Button>
                <Button type="submit" name="intent" value="decline-funding" variant="outline" size="sm">
                  {t("funding.decline")}
                </Button>
              </Form>
            ) : null}
          </li>
        ))}
      </ul>
    </section>
  );
}
