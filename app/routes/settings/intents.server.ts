import { parseWithZod } from "@conform-to/zod/v4";
import { data, type RouterContextProvider } from "react-router";
import { z } from "zod";
import { changePassword } from "~/.server/accounts/accounts";
import type { SessionUser } from "~/.server/accounts/sessions";
import { removeAvatar, setAvatar } from "~/.server/members/avatar";
import { countryCode } from "~/.server/members/countries";
import { linkOrganisation, unlinkOrganisation } from "~/.server/members/organisation";
import { saveProfile } from "~/.server/members/profile-settings";
import { attempt, Refused } from "~/.server/refused";
import { allowMemberCall } from "~/.server/security/rate-limit";
import { unblock } from "~/.server/social/blocks";
import { callerFrom } from "~/.server/web/auth/caller";
import { invalid } from "~/.server/web/auth/form-actions";
import { sessionContext } from "~/.server/web/auth/session";
import { getLocale } from "~/.server/web/i18n/middleware";
import { flashRedirect } from "~/.server/web/shell/flash";
import type { Intents } from "~/.server/web/shell/intents";
import { refusalReply } from "~/.server/web/shell/refusals";
import { isLanguage } from "~/lib/i18n";
import { PROFILE_LINE_MAX } from "~/lib/limits";
import { changePasswordSchema } from "~/lib/schemas/auth";
import { profileSchema } from "~/lib/schemas/profile";
import { requiredText } from "~/lib/schemas/text";

// The settings page's own intents: the profile, the avatar, the password and unblocking, each a form
// answered with a redirect back to its section (PRG) or the form again. Notifications, ORCID and
// the account's deletion post to routes of their own beside this one.

export interface SettingsIntent {
  request: Request;
  context: Readonly<RouterContextProvider>;
  form: FormData;
  user: SessionUser;
}

/** The form's country fields take a country typed by name, in any of the three languages, or its code. */
const countryByName = (field: string) =>
  requiredText(field, PROFILE_LINE_MAX).transform((text, context) => {
    const code = countryCode(text);
    if (code) return code;
    context.issues.push({ code: "custom", message: "validation.countryInvalid", input: text });
    return z.NEVER;
  });

/** Back to the section the form was on (its own address, `?section=` and all). */
export const saved = (request: Request, key: string) => {
  const { pathname, search } = new URL(request.url);
  return flashRedirect(request, pathname + search, "success", key);
};

async function profile({ request, form, user }: SettingsIntent) {
  const kind = user.kind as "individual" | "facilitator";
  const schema = profileSchema(kind).extend({ country: countryByName("country"), nationality: countryByName("nationality") });
  const submission = parseWithZod(form, { schema });
  if (submission.status !== "success") return data({ profile: submission.reply() }, { status: 400 });
  const saving = await attempt(() => saveProfile(user.id, kind, submission.value, Date.now()));
  if (saving instanceof Refused) {
    const { reply, status } = refusalReply(submission, saving);
    return data({ profile: reply }, { status });
  }
  return saved(request, "notify.updateSuccess");
}

async function avatar({ request, form, user }: SettingsIntent) {
  const setting = await attempt(async () => {
    // Re-encoding costs CPU: the page shares the API's per-member budget.
    if (!(await allowMemberCall(user.id))) throw new Refused("validation.rateLimited", { status: 429, field: "avatar" });
    const file = form.get("avatar");
    if (typeof file === "string" || !file || file.size === 0) throw new Refused("validation.avatarMissing", { field: "avatar" });
    await setAvatar(user.id, new Uint8Array(await file.arrayBuffer()));
  });
  if (setting instanceof Refused) {
    const { reply, status } = refusalReply(undefined, setting);
    return data({ avatar: reply }, { status });
  }
  return saved(request, "notify.updateSuccess");
}

async function password({ request, context, form, user }: SettingsIntent) {
  const submission = parseWithZod(form, { schema: changePasswordSchema });
  if (submission.status !== "success") return data({ password: invalid(submission).data.result }, { status: 400 });
  const token = context.get(sessionContext).token ?? "";
  const { currentPassword, password } = submission.value;
  const changed = await attempt(() => changePassword(user.id, token, currentPassword, password, callerFrom(request, context)));
  if (changed instanceof Refused) {
    const { reply, status } = refusalReply(submission, changed);
    return data({ password: reply }, { status });
  }
  return saved(request, "notify.passwordChanged");
}

/** The organisation the member picked from the registry's answer, checked with the registry again. */
async function linkOrganisationIntent({ request, context, form, user }: SettingsIntent) {
  const back = "/personal/Setting?section=organisation";
  const locale = getLocale(context);
  const linked = await attempt(() =>
    linkOrganisation(user.id, String(form.get("ror_id") ?? ""), isLanguage(locale) ? locale : "en", Date.now()),
  );
  if (linked instanceof Refused) return flashRedirect(request, back, "error", linked.key);
  return flashRedirect(request, back, "success", "notify.updateSuccess");
}

export const intents = {
  profile,
  avatar,
  "remove-avatar": async ({ request, user }: SettingsIntent) => {
    await removeAvatar(user.id);
    return saved(request, "notify.updateSuccess");
  },
  password,
  "link-organisation": linkOrganisationIntent,
  "unlink-organisation": async ({ request, user }: SettingsIntent) => {
    await unlinkOrganisation(user.id);
    return flashRedirect(request, "/personal/Setting?section=organisation", "success", "notify.updateSuccess");
  },
  unblock: async ({ request, form, user }: SettingsIntent) => {
    const member = Number(form.get("member"));
    if (!Number.isInteger(member) || member <= 0) throw data(null, { status: 400 });
    await unblock(user.id, member);
    return saved(request, "safety.unblockDone");
  },
} satisfies Intents<SettingsIntent>;
