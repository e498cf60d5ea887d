import { exportData } from "~/.server/accounts/export-data";
import { requireUser } from "~/.server/web/auth/session";
import type { Route } from "./+types/personal.export";

/** "Download my data": the member's own data as a JSON file (a plain link, so it works without JavaScript). */
export function loader({ request, context }: Route.LoaderArgs) {
  const user = requireUser(request, context);
  const day = new Date().toISOString().slice(0, 10);
  return new Response(exportData(user.id, Date.now(), new URL(request.url).origin), {
    headers: {
      "Content-Type": "application/json; charset=utf-8",
      "Content-Disposition": `attachment; filename="research-commons-data-${day}.json"`,
      "Cache-Control": "private, no-store",
    },
  });
}
