import { useTranslation } from "react-i18next";
import { data, redirect } from "react-router";
import { config } from "~/.server/config/config";
import { supportedRead } from "~/.server/content/funding";
import { countryName } from "~/.server/members/countries";
import { memberPage } from "~/.server/members/profile";
import { readOne } from "~/.server/reads";
import { requireUser } from "~/.server/web/auth/session";
import { getLocale } from "~/.server/web/i18n/middleware";
import { languageOf } from "~/.server/web/i18n/request-language";
import { runIntent } from "~/.server/web/shell/intents";
import { ContentGrid } from "~/components/content-card";
import { MemberList } from "~/components/member-list";
import { isLanguage } from "~/lib/i18n";
import type { Route } from "./+types/route";
import { CoAuthored } from "./co-authored";
import { MemberHeader } from "./header";
import { intents } from "./intents.server";
import { Interests } from "./interests";
import { Rewards } from "./rewards";
import { Supported } from "./supported";
import { Tags } from "./tags";

/** /personal is the member's own page; /personal?member=ID is anyone's. */
const memberIdOf = (request: Request, selfId: number) => {
  const raw = new URL(request.url).searchParams.get("member");
  return raw === null ? selfId : Number(raw);
};

export async function loader({ request, context }: Route.LoaderArgs) {
  const user = requireUser(request, context);
  const id = memberIdOf(request, user.id);
  const known = Number.isInteger(id) && id > 0;
  // The works naming them as funder (decision 0052), by their organisation's ROR id or by name, read beside the page.
  const [page, supported] = known
    ? await Promise.all([memberPage(user.id, id, languageOf(request)), readOne(supportedRead(id, user.id))])
    : [null, []];
  if (!page) throw data(null, { status: 404 });
  const locale = getLocale(context);
  const country = page.profile ? countryName(page.profile.country, isLanguage(locale) ? locale : "en") : null;
  return { ...page, country, supported, labels: config().membershipLabels, now: Date.now() };
}

export async function action({ request, context }: Route.ActionArgs) {
  const user = requireUser(request, context);
  const form = await request.formData();
  const intent = String(form.get("intent") ?? "");
  const id = memberIdOf(request, user.id);
  const answered = await runIntent(intents, intent, { request, form, intent, user, id, now: Date.now() });
  if (answered) return answered;
  const member = new URL(request.url).searchParams.get("member");
  return redirect(member === null ? "/personal" : `/personal?member=${id}`, { status: 303 });
}

/** A member's page: who they are, what they uploaded, who follows them and whom they follow. */
export default function MemberPage({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const { member, uploads, co_authored: coAuthored, followers, following, now, is_self } = loaderData;
  return (
    <div className="mx-auto flex max-w-5xl flex-col gap-6" data-testid="member-page">
      <title>{`${t("route.space")}: ${member.nick_name} - ${t("product.title")}`}</title>
      <MemberHeader data={loaderData} />
      <Rewards data={loaderData} />
      <Tags data={loaderData} actionData={actionData} />
      <Interests data={loaderData} actionData={actionData} />
      <section>
        <h2 className="mb-2 font-medium">{t("member.uploads")}</h2>
        {uploads.length === 0 ? <p className="text-sm text-slate-500">{t("member.noUploads")}</p> : null}
        <ContentGrid items={uploads} now={now} testId="member-uploads" />
      </section>
      {coAuthored.length > 0 ? <CoAuthored items={coAuthored} name={member.nick_name} self={is_self} now={now} /> : null}
      {loaderData.supported.length > 0 ? <Supported works={loaderData.supported} self={is_self} /> : null}

      <div className="grid gap-6 sm:grid-cols-2">
        <section>
          <h2 className="mb-2 font-medium">{t("member.followers")}</h2>
          <MemberList members={followers} empty={t("member.noFollowers")} testId="member-followers" />
        </section>
        <section>
          <h2 className="mb-2 font-medium">{t("member.following")}</h2>
          <MemberList members={following} empty={t("member.noFollowing")} testId="member-following" />
        </section>
      </div>
    </div>
  );
}
