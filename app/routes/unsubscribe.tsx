import { useTranslation } from "react-i18next";
import { data, Form } from "react-router";
import { optedOut, optOut, validOptOut } from "~/.server/mail/opt-out";
import { PageTitle } from "~/components/page-title";
import { PublicPage } from "~/components/public-page";
import { Button } from "~/components/ui/button";
import type { PageHandle } from "~/lib/page-handle";
import type { Route } from "./+types/unsubscribe";

// The stop link of meeting mail to outside addresses (app/.server/mail/opt-out.ts). Opening it asks
// (a mail scanner that follows links stops nothing); the button, or a mail client's one-click POST
// (RFC 8058, `List-Unsubscribe=One-Click`), stops it. No account is needed: the token is the address's.

type State = "ask" | "done" | "invalid";

async function read(params: URLSearchParams | FormData) {
  const address = String(params.get("address") ?? "");
  const token = String(params.get("token") ?? "");
  const valid = address.length > 0 && address.length <= 254 && (await validOptOut(address, token));
  return { address, token, valid };
}

export async function loader({ request }: Route.LoaderArgs) {
  const { address, token, valid } = await read(new URL(request.url).searchParams);
  if (!valid) return data({ state: "invalid" as State, address: "", token: "" }, { status: 400 });
  return { state: ((await optedOut(address)) ? "done" : "ask") as State, address, token };
}

export async function action({ request }: Route.ActionArgs) {
  // The one-click post carries the address and token in the link's query; the page's form in its body.
  const query = new URL(request.url).searchParams;
  const { address, valid } = await read(query.has("token") ? query : await request.formData());
  if (!valid) return data({ state: "invalid" as State, address: "", token: "" }, { status: 400 });
  await optOut(address, Date.now());
  return { state: "done" as State, address, token: "" };
}

export const handle: PageHandle = { scripts: false };

export default function Unsubscribe({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const { state, address, token } = actionData ?? loaderData;
  return (
    <PublicPage titleKey="unsubscribe">
      <PageTitle titleKey="unsubscribe" />
      {state === "invalid" ? (
        <p role="alert">{t("unsubscribe.invalid")}</p>
      ) : state === "done" ? (
        <p role="status">{t("unsubscribe.done", { address })}</p>
      ) : (
        <Form method="post" className="space-y-4">
          <p>{t("unsubscribe.ask", { address })}</p>
          <input type="hidden" name="address" value={address} />
          <input type="hidden" name="token" value={token} />
          <Button type="submit">{t("unsubscribe.confirm")}</Button>
        </Form>
      )}
    </PublicPage>
  );
}
