import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { orcidEnabled, orcidLinkRead } from "~/.server/accounts/orcid";
import { countryName, countryNames } from "~/.server/members/countries";
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
import { cn } from "~/lib/utils";
import type { Route } from "./+types/route";
import { BlockedMembers } from "./blocked-members";
import { runIntent } from "./intents.server";
import { NotificationSettings } from "./notification-settings";
import { OrcidSettings } from "./orcid-settings";

/**
 * /personal/Setting: the profile (spec section 3); `?section=avatar` the avatar; `?section=account`
 * the password, signing in with ORCID, the language and the member's data; `?section=notifications` the
 * notices and blocked members. Four pages, not one (decision 0047): the whole was 17 KB gzip, over
 * its 14 KB budget.
 */
const SECTIONS = ["profile", "avatar", "account", "notifications"] as const;
type Section = (typeof SECTIONS)[number];
const sectionIn = (query: URLSearchParams): Section => SECTIONS.find((section) => section === query.get("section")) ?? "profile";
const sectionOf = (request: Request) => sectionIn(new URL(request.url).searchParams);

// The avatar's page has its cropper, the avatar module (docs/decisions/0046).
export const handle: PageHandle = { modules: (query) => (sectionIn(query) === "avatar" ? ["avatar"] : []) };

export async function loader({ request, context }: Route.LoaderArgs) {
  const user = requireUser(request, context);
  const locale = getLocale(context);
  const language = isLanguage(locale) ? locale : "en";
  // What the sections show, in one round trip (each page renders its own).
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
          country: countryName(profile.country, language),
          nationality: countryName(profile.nationality, language),
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
    section: sectionOf(request),
    kind: user.kind as "individual" | "facilitator",
    avatar: { image: user.image, name: user.nick_name },
    accountType: user.account_type,
    language,
    defaults,
    countries: countryNames(language),
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
  const { section, kind, avatar, accountType, defaults, countries, today, blocked, language, channels, following, orcid } = loaderData;
  const box = "rounded-lg border border-slate-200 bg-white p-4";
  return (
    <div className="mx-auto flex max-w-3xl flex-col gap-8">
      <PageTitle titleKey="setting" />
      <nav aria-label={t("route.setting")} className="flex flex-wrap gap-1 border-b border-slate-200" data-testid="settings-sections">
        {SECTIONS.map((name) => (
          <Link
            key={name}
            to={name === "profile" ? "/personal/Setting" : `/personal/Setting?section=${name}`}
            aria-current={name === section ? "page" : undefined}
            className={cn(
              "-mb-px border-b-2 px-3 py-2 text-sm",
              name === section ? "border-brand font-medium text-brand" : "border-transparent text-slate-600 hover:text-slate-900",
            )}
          >
            {t(`settings.sections.${name}`)}
          </Link>
        ))}
      </nav>
      {section === "avatar" ? (
        <section className={box}>
          <h2 className="mb-3 font-medium">{t("settings.avatar")}</h2>
          <AvatarForm {...avatar} errors={actionData && "avatar" in actionData ? actionData.avatar : undefined} />
        </section>
      ) : null}
      {section === "profile" ? (
        <section data-testid="profile" className={box}>
          <h2 className="mb-1 font-medium">{t("settings.profile")}</h2>
          <p className="mb-4 text-sm text-slate-600">{t("settings.profileHelp")}</p>
          <p className="mb-4 text-sm" data-testid="account-type">
            <span className="font-medium">{t("settings.accountType")}:</span>{" "}
            {accountType === 1 ? t("auth.researcher") : t("auth.investor")}
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
      ) : null}
      {section === "account" ? (
        <>
          <section className={box}>
            <h2 className="mb-1 font-medium">{t("settings.password")}</h2>
            <p className="mb-4 text-sm text-slate-600">{t("settings.passwordHelp")}</p>
            <PasswordForm lastResult={actionData && "password" in actionData ? actionData.password : undefined} />
          </section>
          {orcid.enabled || orcid.orcid ? (
            <section id="orcid" data-testid="orcid" className={box}>
              <OrcidSettings {...orcid} />
            </section>
          ) : null}
          <section className={box}>
            <LanguageForm current={language} />
            <h2 className="mt-6 mb-1 font-medium">{t("size.label")}</h2>
            <p className="mb-2 text-sm text-slate-600">{t("size.help")}</p>
            <SizeSwitcher className="gap-1" />
          </section>
          <section className={box} data-testid="your-data">
            <h2 className="mb-1 font-medium">{t("settings.yourData")}</h2>
            <DataControls lastResult={actionData && "deletion" in actionData ? actionData.deletion : undefined} />
          </section>
        </>
      ) : null}
      {section === "notifications" ? (
        <>
          <section className={box}>
            <NotificationSettings channels={channels} following={following} />
          </section>
          <section data-testid="blocked-members" className={box}>
            <BlockedMembers blocked={blocked} />
          </section>
        </>
      ) : null}
    </div>
  );
}
