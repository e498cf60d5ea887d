import { data } from "react-router";
import { PageTitle } from "~/components/page-title";
import { StatusPage } from "~/components/status-page";
import type { PageHandle } from "~/lib/page-handle";

export const loader = () => data(null, { status: 404 });

// Text and links only: nothing to hydrate.
export const handle: PageHandle = { scripts: false };

export default function NotFound() {
  return (
    <>
      <PageTitle titleKey="page404" />
      <StatusPage kind="404" />
    </>
  );
}
