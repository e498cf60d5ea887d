import { useTranslation } from "react-i18next";
import { Form } from "react-router";
import { ContentGrid } from "~/components/content-card";
import { Button } from "~/components/ui/button";
import type { FeedItem } from "~/lib/shapes";

/** Items others uploaded that list this member's authenticated ORCID iD as a co-author; on one's own page, a way off each list. */
export function CoAuthored({ items, name, self, now }: { items: FeedItem[]; name: string; self: boolean; now: number }) {
  const { t } = useTranslation();
  return (
    <section data-testid="co-authored">
      <h2 className="mb-1 font-medium">{t("orcid.coAuthored")}</h2>
      <p className="mb-2 text-sm text-slate-600">{t("orcid.coAuthoredHelp", { name })}</p>
      <ContentGrid items={items} now={now} testId="co-authored-items" />
      {self ? (
        <ul className="mt-2 flex flex-col gap-1 text-sm">
          {items.map((item) => (
            <li key={item.id}>
              <Form method="post" className="flex items-center gap-2">
                <input type="hidden" name="content" value={item.id} />
                <span className="truncate">{item.title}</span>
                <Button type="submit" name="intent" value="leave-co-authors" variant="outline" size="sm" data-testid="leave-co-authors">
                  {t("orcid.removeMe")}
                </Button>
              </Form>
            </li>
          ))}
        </ul>
      ) : null}
    </section>
  );
}
