import { useMatches } from "react-router";
import { type EmptyKey, EmptyState } from "~/components/empty-state";
import { PageTitle } from "~/components/page-title";
import { PublicPage } from "~/components/public-page";
import { MAIN_ROUTES, metaTrail } from "~/lib/route-meta";

/**
 * Every screen of the route table whose capability arrives in a later issue. The route id names the
 * screen (see routes.ts); the page says honestly what will be there.
 */
export default function EmptyStatePage() {
  const match = useMatches().at(-1);
  const id = (match?.id ?? "home") as EmptyKey;
  const insideLayout = metaTrail(match?.pathname ?? "", MAIN_ROUTES).length > 0;
  const body = (
    <>
      <PageTitle titleKey={id} />
      <EmptyState what={id} />
    </>
  );
  return insideLayout ? body : <PublicPage titleKey={id}>{body}</PublicPage>;
}
