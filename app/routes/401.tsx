import { data } from "react-router";
import { PageTitle } from "~/components/page-title";
import { StatusPage } from "~/components/status-page";
import type { PageHandle } from "~/lib/page-handle";

export const loader = () => data(null, { status: 401 });

// Text and links only: nothing to hydrate.
export const handle: PageHandle = { scripts: false };

export default function NoPermission() {
  return (
    <>
      <PageTitle titleKey="page401" />
      <StatusPage kind="401" />
    </>
  );
}
