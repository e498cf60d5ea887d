import { useMatches } from "react-router";
import { type EmptyKey, EmptyState } from "~/components/empty-state";
import { PageTitle } from "~/components/page-title";

/**
 * Every screen of the route table whose capability arrives in a later issue. The route id names the
 * screen (see routes.ts); the page says honestly what will be there.
 */
export default function EmptyStatePage() {
  const match = useMatches().at(-1);
  const id = (match?.id ?? "home") as EmptyKey;
  return (
    <>
      <PageTitle titleKey={id} />
      <EmptyState what={id} />
    </>
  );
}
