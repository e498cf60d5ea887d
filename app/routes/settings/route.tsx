import { useTranslation } from "react-i18next";
import { orcidEnabled, orcidLinkRead } from "~/.server/accounts/orcid";
import { countryOptions } from "~/.server/members/countries";
import { profileRead } from "~/.server/members/profile-settings";
import { followingRead } from "~/.server/notifications/new-items";
import { channelsRead } from "~/.server/notifications/notifications";
import { readTogether } from "~/.server/reads";
import { blockedRead } from "~/.server/social/blocks";
import { requireUser } from "~/.server/web/auth/session";
import { getLocale } from "~/.server/web/i18n/middleware";
import { DataControls, LanguageForm, PasswordForm } from "~/components/account-forms";
import { AvatarForm } from "~/components/avatar-form";
import { PageTitle } from "~/components/page-title";
import { type ProfileDefaults, ProfileForm } from "~/components/profile-form";
import { SizeSwitcher } from "~/components/size-switcher";
import { isLanguage } from "~/lib/i18n";
import type { PageHandle } from "~/lib/page-handle";
import type { Route } from "./+types/route";
import { BlockedMembers } from "./blocked-members";
import { runIntent } from "./intents.server";
import { NotificationSettings } from "./notification-settings";
import { OrcidSettings } from "./orcid-settings";

/** /personal/Setting: the profile (spec section 3), the password, the language, and blocked members. */
// The avatar's cropper comes from the avatar module (docs/decisions/0046).
export const handle: PageHandle = { modules: ["avatar"] };

export async function loader({ request, context }: Route.LoaderArgs) {
  const user = requireUser(request, context);
  const locale = getLocale(context);
  const language = isLanguage(locale) ? locale : "en";
  // What the page shows, in one round trip.
  const [profile, blocked, channels, following, orcid] = await readTogether([
    profileRead(user.id),
    blockedRead(user.id),
    channelsRead(user.id),
    followingRead(user.id),
    orcidLinkRead(user.id),
  ] as const);
  const defaults: ProfileDefaults = {
    nickName: user.nick_name,
    ...(profile
      ? {
          sex: profile.sex,
          birthday: profile.birthday,
          address: profile.address,
          firstName: profile.first_name,
          middleName: profile.middle_name,
          familyName: profile.family_name,
          country: profile.country,
          nationality: profile.nationality,
          academic: profile.academic,
          research: profile.research,
          website: profile.website,
          phone: profile.phone,
          purpose: profile.purpose,
          abbreviation: profile.abbreviation ?? "",
          industry: profile.industry ?? "",
          organisationPhone: profile.organisation_phone ?? "",
          description: profile.description ?? "",
          legal: profile.legal ?? "",
          organisationEmail: profile.organisation_email ?? "",
          public: profile.public === 1 ? "on" : "",
          orcid: profile.orcid ?? "",
        }
      : {}),
  };
  return {
    kind: user.kind as "individual" | "facilitator",
    avatar: { image: user.image, name: user.nick_name },
    accountType: user.account_type,
    language,
    defaults,
    countries: countryOptions(language),
    today: new Date().toISOString().slice(0, 10),
    blocked,
    channels,
    following,
    orcid: { ...orcid, enabled: orcidEnabled() },
  };
}

export function action({ request, context }: Route.ActionArgs) {
  return runIntent(request, context);
}

export default function Settings({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const { kind, avatar, accountType, defaults, countries, today, blocked, language, channels, following, orcid } = loaderData;
  return (
    <div className="mx-auto flex max-w-3xl flex-col gap-8">
      <PageTitle titleKey="setting" />
      <section className="rounded-lg border border-slate-200 bg-white p-4">
        <h2 className="mb-3 font-medium">{t("settings.avatar")}</h2>
        <AvatarForm {...avatar} errors={actionData && "avatar" in actionData ? actionData.avatar : undefined} />
      </section>
      <section data-testid="profile" className="rounded-lg border border-slate-200 bg-white p-4">
        <h2 className="mb-1 font-medium">{t("settings.profile")}</h2>
        <p className="mb-4 text-sm text-slate-600">{t("settings.profileHelp")}</p>
        <p className="mb-4 text-sm" data-testid="account-type">
          <span className="font-medium">{t("settings.accountType")}:</span> {accountType === 1 ? t("auth.researcher") : t("auth.investor")}
          <span className="block text-xs text-slate-500">{t("settings.accountTypeFixed")}</span>
        </p>
        <ProfileForm
          kind={kind}
          defaults={defaults}
          countries={countries}
          today={today}
          lastResult={actionData && "profile" in actionData ? actionData.profile : undefined}
        />
      </section>
      {orcid.enabled || orcid.orcid ? (
        <section id="orcid" data-testid="orcid" className="rounded-lg border border-slate-200 bg-white p-4">
          <OrcidSettings {...orcid} />
        </section>
      ) : null}
      <section className="rounded-lg border border-slate-200 bg-white p-4">
        <h2 className="mb-1 font-medium">{t("settings.password")}</h2>
        <p className="mb-4 text-sm text-slate-600">{t("settings.passwordHelp")}</p>
        <PasswordForm lastResult={actionData && "password" in actionData ? actionData.password : undefined} />
      </section>
      <section className="rounded-lg border border-slate-200 bg-white p-4">
        <LanguageForm current={language} />
        <h2 className="mt-6 mb-1 font-medium">{t("size.label")}</h2>
        <p className="mb-2 text-sm text-slate-600">{t("size.help")}</p>
        <SizeSwitcher className="gap-1" />
      </section>
      <section className="rounded-lg border border-slate-200 bg-white p-4">
        <NotificationSettings channels={channels} following={following} />
      </section>
      <section className="rounded-lg border border-slate-200 bg-white p-4" data-testid="your-data">
        <h2 className="mb-1 font-medium">{t("settings.yourData")}</h2>
        <DataControls lastResult={actionData && "deletion" in actionData ? actionData.deletion : undefined} />
      </section>
      <section data-testid="blocked-members" className="rounded-lg border border-slate-200 bg-white p-4">
        <BlockedMembers blocked={blocked} />
      </section>
    </div>
  );
}
