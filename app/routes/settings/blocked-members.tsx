import { useTranslation } from "react-i18next";
import { Form } from "react-router";
import { Avatar } from "~/components/avatar";
import { Button } from "~/components/ui/button";
import type { Route } from "./+types/route";

/** The members one has blocked, each with its unblock form. */
export function BlockedMembers({ blocked }: { blocked: Route.ComponentProps["loaderData"]["blocked"] }) {
  const { t } = useTranslation();
  return (
    <>
      <h2 className="mb-2 font-medium">{t("safety.blockedMembers")}</h2>
      {blocked.length === 0 ? <p className="text-sm text-slate-500">{t("safety.noneBlocked")}</p> : null}
      <ul className="flex flex-col gap-2">
        {blocked.map((member) => (
          <li key={member.id} className="flex items-center gap-3">
            <Avatar image={member.image} name={member.nick_name} />
            <span className="flex-1">{member.nick_name}</span>
            <Form method="post">
              <input type="hidden" name="intent" value="unblock" />
              <input type="hidden" name="member" value={member.id} />
              <Button type="submit" variant="outline" size="sm">
                {t("safety.unblock")}
              </Button>
            </Form>
          </li>
        ))}
      </ul>
    </>
  );
}
