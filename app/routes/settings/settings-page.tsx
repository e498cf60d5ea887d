import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { DataControls, LanguageForm, PasswordForm } from "~/components/account-forms";
import { AvatarForm } from "~/components/avatar-form";
import { PageTitle } from "~/components/page-title";
import { ProfileForm } from "~/components/profile-form";
import { SizeSwitcher } from "~/components/size-switcher";
import type { FormReply } from "~/lib/use-form";
import { cn } from "~/lib/utils";
import { BlockedMembers } from "./blocked-members";
import { NotificationSettings } from "./notification-settings";
import { OrcidSettings } from "./orcid-settings";
import { OrganisationSettings } from "./organisation-settings";
import type { settingsPage } from "./page.server";
import { SECTIONS } from "./sections";

type SettingsData = Awaited<ReturnType<typeof settingsPage>>;
/** Each form's reply when it comes back refused. */
export type SettingsReplies = Partial<Record<"profile" | "avatar" | "password" | "deletion", FormReply>>;

/** A settings page: the sections' tabs and the one section shown, with its forms' replies. */
export function SettingsPage({ loaderData, actionData }: { loaderData: SettingsData; actionData: SettingsReplies | undefined }) {
  const { t } = useTranslation();
  const { section, kind, avatar, accountType, defaults, countries, today, blocked, language, channels, following, orcid, organisation } =
    loaderData;
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
      {section === "organisation" ? (
        <section className={box} data-testid="organisation">
          <OrganisationSettings organisation={organisation} />
        </section>
      ) : null}
      {section === "avatar" ? (
        <section className={box}>
          <h2 className="mb-3 font-medium">{t("settings.avatar")}</h2>
          <AvatarForm {...avatar} errors={actionData?.avatar?.error?.avatar ?? undefined} />
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
          <ProfileForm kind={kind} defaults={defaults} countries={countries} today={today} lastResult={actionData?.profile} />
        </section>
      ) : null}
      {section === "account" ? (
        <>
          <section className={box}>
            <h2 className="mb-1 font-medium">{t("settings.password")}</h2>
            <p className="mb-4 text-sm text-slate-600">{t("settings.passwordHelp")}</p>
            <PasswordForm lastResult={actionData?.password} />
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
            <DataControls lastResult={actionData?.deletion} />
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
