import { parseWithZod } from "@conform-to/zod/v4";
import { useTranslation } from "react-i18next";
import { data, Form, redirect } from "react-router";
import { changePassword } from "~/.server/accounts/accounts";
import { deleteAccount } from "~/.server/accounts/delete-account";
import { env } from "~/.server/bindings";
import { removeAvatar, setAvatar } from "~/.server/members/avatar";
import { countryOptions } from "~/.server/members/countries";
import { profileOf, saveProfile } from "~/.server/members/profile-settings";
import { mutedKinds, setWantedKinds } from "~/.server/notifications/notifications";
import { attempt, Refused } from "~/.server/refused";
import { allowRequest } from "~/.server/security/rate-limit";
import { blockedMembers, unblock } from "~/.server/social/blocks";
import { callerFrom } from "~/.server/web/auth/caller";
import { clearTokenCookie } from "~/.server/web/auth/cookies";
import { accountFailure, invalid } from "~/.server/web/auth/form-actions";
import { requireUser, sessionContext } from "~/.server/web/auth/session";
import { getLocale } from "~/.server/web/i18n/middleware";
import { flashCookie, flashRedirect } from "~/.server/web/shell/flash";
import { refusalReply } from "~/.server/web/shell/refusal-reply";
import { DataControls, LanguageForm, PasswordForm } from "~/components/account-forms";
import { Avatar } from "~/components/avatar";
import { AvatarForm } from "~/components/avatar-form";
import { PageTitle } from "~/components/page-title";
import { type ProfileDefaults, ProfileForm } from "~/components/profile-form";
import { Button } from "~/components/ui/button";
import { isLanguage } from "~/lib/i18n";
import { NOTIFICATION_KINDS, type NotificationKind } from "~/lib/notifications";
import { changePasswordSchema, deleteAccountSchema } from "~/lib/schemas/auth";
import { profileSchema } from "~/lib/schemas/profile";
import type { Route } from "./+types/settings";

/** /personal/Setting: the profile (spec section 3), the password, the language, and blocked members. */
export async function loader({ request, context }: Route.LoaderArgs) {
  const user = requireUser(request, context);
  const locale = getLocale(context);
  const language = isLanguage(locale) ? locale : "en";
  const [profile, blocked, muted] = await Promise.all([
    profileOf(env.DB, user.id),
    blockedMembers(env.DB, user.id),
    mutedKinds(env.DB, user.id),
  ]);
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
    muted,
  };
}

const saved = (request: Request, key: string) => flashRedirect(request, "/personal/Setting", "success", key);

export async function action({ request, context }: Route.ActionArgs) {
  const user = requireUser(request, context);
  const form = await request.formData();
  const intent = form.get("intent");
  if (intent === "profile") {
    const kind = user.kind as "individual" | "facilitator";
    const submission = parseWithZod(form, { schema: profileSchema(kind) });
    if (submission.status !== "success") return data({ profile: submission.reply() }, { status: 400 });
    const saving = await attempt(() => saveProfile(env.DB, user.id, kind, submission.value, Date.now()));
    if (saving instanceof Refused) {
      const { reply, status } = refusalReply(submission, saving);
      return data({ profile: reply }, { status });
    }
    return saved(request, "notify.updateSuccess");
  }
  if (intent === "avatar") {
    // Re-encoding costs CPU: the page shares the API's per-member budget.
    if (!(await allowRequest(env.API_LIMITER, `member:${user.id}`))) return data({ avatar: ["validation.rateLimited"] }, { status: 429 });
    const file = form.get("avatar");
    if (typeof file === "string" || !file || file.size === 0) return data({ avatar: ["validation.avatarMissing"] }, { status: 400 });
    const bytes = new Uint8Array(await file.arrayBuffer());
    const result = await attempt(() => setAvatar(env.DB, env.FILES, user.id, bytes));
    if (result instanceof Refused) return data({ avatar: [result.key] }, { status: result.status });
    return saved(request, "notify.updateSuccess");
  }
  if (intent === "remove-avatar") {
    await removeAvatar(env.DB, env.FILES, user.id);
    return saved(request, "notify.updateSuccess");
  }
  if (intent === "notifications") {
    const wanted = form.getAll("kinds").filter((kind): kind is NotificationKind => NOTIFICATION_KINDS.includes(kind as NotificationKind));
    await setWantedKinds(env.DB, user.id, wanted);
    return saved(request, "notify.updateSuccess");
  }
  if (intent === "password") {
    const submission = parseWithZod(form, { schema: changePasswordSchema });
    if (submission.status !== "success") return data({ password: invalid(submission).data.result }, { status: 400 });
    const token = context.get(sessionContext).token ?? "";
    try {
      await changePassword(user.id, token, submission.value.currentPassword, submission.value.password, callerFrom(request, context));
    } catch (error) {
      const failed = accountFailure(submission, error);
      return data({ password: failed.data.result }, failed.init ?? undefined);
    }
    return saved(request, "notify.passwordChanged");
  }
  if (intent === "delete-account") {
    const submission = parseWithZod(form, { schema: deleteAccountSchema });
    if (submission.status !== "success") return data({ deletion: invalid(submission).data.result }, { status: 400 });
    try {
      await deleteAccount(user.id, submission.value.password, callerFrom(request, context));
    } catch (error) {
      const failed = accountFailure(submission, error);
      return data({ deletion: failed.data.result }, failed.init ?? undefined);
    }
    const headers = new Headers();
    headers.append("Set-Cookie", clearTokenCookie(request));
    headers.append("Set-Cookie", flashCookie(request, "info", "notify.accountDeleted"));
    return redirect("/login", { status: 303, headers });
  }
  const member = Number(form.get("member"));
  if (intent === "unblock" && Number.isInteger(member) && member > 0) {
    await unblock(env.DB, user.id, member);
    return saved(request, "safety.unblockDone");
  }
  throw data(null, { status: 400 });
}

export default function Settings({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const { kind, avatar, accountType, defaults, countries, today, blocked, language, muted } = loaderData;
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
      <section className="rounded-lg border border-slate-200 bg-white p-4">
        <h2 className="mb-1 font-medium">{t("settings.password")}</h2>
        <p className="mb-4 text-sm text-slate-600">{t("settings.passwordHelp")}</p>
        <PasswordForm lastResult={actionData && "password" in actionData ? actionData.password : undefined} />
      </section>
      <section className="rounded-lg border border-slate-200 bg-white p-4">
        <LanguageForm current={language} />
      </section>
      <section className="rounded-lg border border-slate-200 bg-white p-4">
        <h2 className="mb-1 font-medium">{t("notifications.settings")}</h2>
        <p className="mb-3 text-sm text-slate-600">{t("notifications.settingsHelp")}</p>
        <Form method="post" data-testid="notification-settings" className="flex flex-col gap-2">
          <input type="hidden" name="intent" value="notifications" />
          {NOTIFICATION_KINDS.map((kind) => (
            <label key={kind} className="flex items-center gap-2 text-sm">
              <input type="checkbox" name="kinds" value={kind} defaultChecked={!muted.includes(kind)} />
              {t(`notifications.kinds.${kind}`)}
            </label>
          ))}
          <Button type="submit" className="mt-2 self-start">
            {t("notifications.save")}
          </Button>
        </Form>
      </section>
      <section className="rounded-lg border border-slate-200 bg-white p-4" data-testid="your-data">
        <h2 className="mb-1 font-medium">{t("settings.yourData")}</h2>
        <DataControls lastResult={actionData && "deletion" in actionData ? actionData.deletion : undefined} />
      </section>
      <section data-testid="blocked-members" className="rounded-lg border border-slate-200 bg-white p-4">
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
      </section>
    </div>
  );
}
