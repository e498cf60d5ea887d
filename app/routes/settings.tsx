import { useTranslation } from "react-i18next";
import { Form, redirect } from "react-router";
import { requireUser } from "~/.server/auth/session";
import { env } from "~/.server/bindings";
import { flashCookie } from "~/.server/shell/flash";
import { blockedMembers, unblock } from "~/.server/social/blocks";
import { Avatar } from "~/components/avatar";
import { EmptyState } from "~/components/empty-state";
import { PageTitle } from "~/components/page-title";
import { Button } from "~/components/ui/button";
import type { Route } from "./+types/settings";

/** /personal/Setting: the members this member blocked, to unblock (profile settings come with issue 13). */
export async function loader({ request, context }: Route.LoaderArgs) {
  const user = requireUser(request, context);
  return { blocked: await blockedMembers(env.DB, user.id) };
}

export async function action({ request, context }: Route.ActionArgs) {
  const user = requireUser(request, context);
  const form = await request.formData();
  const member = Number(form.get("member"));
  if (Number.isInteger(member) && member > 0) await unblock(env.DB, user.id, member);
  return redirect("/personal/Setting", { status: 303, headers: { "Set-Cookie": flashCookie(request, "success", "safety.unblockDone") } });
}

export default function Settings({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  return (
    <div className="mx-auto flex max-w-3xl flex-col gap-6">
      <PageTitle titleKey="setting" />
      <EmptyState what="setting" />
      <section data-testid="blocked-members">
        <h2 className="mb-2 font-medium">{t("safety.blockedMembers")}</h2>
        {loaderData.blocked.length === 0 ? <p className="text-sm text-slate-500">{t("safety.noneBlocked")}</p> : null}
        <ul className="flex flex-col gap-2">
          {loaderData.blocked.map((member) => (
            <li key={member.id} className="flex items-center gap-3">
              <Avatar image={member.image} name={member.nick_name} />
              <span className="flex-1">{member.nick_name}</span>
              <Form method="post">
                <input type="hidden" name="member" value={member.id} />
                <Button type="submit" variant="outline" size="sm">
                  {t("safety.unblock")}
                </Button>
              </Form>
            </li>
          ))}
        </ul>
      </section>
    </div>
  );
}
