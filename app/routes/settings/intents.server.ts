import { parseWithZod } from "@conform-to/zod/v4";
import { data, type RouterContextProvider } from "react-router";
import { z } from "zod";
import { changePassword } from "~/.server/accounts/accounts";
import { deleteAccount } from "~/.server/accounts/delete-account";
import { unlinkOrcid } from "~/.server/accounts/orcid";
import { removeAvatar, setAvatar } from "~/.server/members/avatar";
import { countryCode } from "~/.server/members/countries";
import { saveProfile } from "~/.server/members/profile-settings";
import { deleteSavedSearch, followGoal } from "~/.server/notifications/new-items";
import { setChannels } from "~/.server/notifications/notifications";
import { attempt, Refused } from "~/.server/refused";
import { allowMemberCall } from "~/.server/security/rate-limit";
import { unblock } from "~/.server/social/blocks";
import { callerFrom } from "~/.server/web/auth/caller";
import { clearTokenCookie } from "~/.server/web/auth/cookies";
import { accountFailure, invalid } from "~/.server/web/auth/form-actions";
import { requireUser, sessionContext } from "~/.server/web/auth/session";
import { flashRedirect } from "~/.server/web/shell/flash";
import { refusalReply } from "~/.server/web/shell/refusals";
import { PROFILE_LINE_MAX } from "~/lib/limits";
import { isNotificationChannel, NOTIFICATION_KINDS } from "~/lib/notifications";
import { changePasswordSchema, deleteAccountSchema } from "~/lib/schemas/auth";
import { profileSchema } from "~/lib/schemas/profile";
import { requiredText } from "~/lib/schemas/text";

// The settings page's intents: the profile, the avatar, notifications, the password, the account's
// deletion and unblocking, each a form of its own answered with a redirect (PRG) or the form again.

/** The form's country fields take a country typed by name, in any of the three languages, or its code. */
const countryByName = (field: string) =>
  requiredText(field, PROFILE_LINE_MAX).transform((text, context) => {
    const code = countryCode(text);
    if (code) return code;
    context.issues.push({ code: "custom", message: "validation.countryInvalid", input: text });
    return z.NEVER;
  });

/** Back to the section the form was on (its own address, `?section=` and all). */
const saved = (request: Request, key: string) => {
  const { pathname, search } = new URL(request.url);
  return flashRedirect(request, pathname + search, "success", key);
};

export async function runIntent(request: Request, context: Readonly<RouterContextProvider>) {
  const user = requireUser(request, context);
  const form = await request.formData();
  const intent = form.get("intent");
  if (intent === "profile") {
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
  if (intent === "avatar") {
    // Re-encoding costs CPU: the page shares the API's per-member budget.
    if (!(await allowMemberCall(user.id))) return data({ avatar: ["validation.rateLimited"] }, { status: 429 });
    const file = form.get("avatar");
    if (typeof file === "string" || !file || file.size === 0) return data({ avatar: ["validation.avatarMissing"] }, { status: 400 });
    const bytes = new Uint8Array(await file.arrayBuffer());
    const result = await attempt(() => setAvatar(user.id, bytes));
    if (result instanceof Refused) return data({ avatar: [result.key] }, { status: result.status });
    return saved(request, "notify.updateSuccess");
  }
  if (intent === "remove-avatar") {
    await removeAvatar(user.id);
    return saved(request, "notify.updateSuccess");
  }
  if (intent === "notifications") {
    // One select per kind, named for it; a kind or channel it does not know is ignored.
    const channels = Object.fromEntries(
      NOTIFICATION_KINDS.flatMap((kind) => {
        const channel = String(form.get(`channel.${kind}`) ?? "");
        return isNotificationChannel(channel) ? [[kind, channel]] : [];
      }),
    );
    await setChannels(user.id, channels);
    return saved(request, "notify.updateSuccess");
  }
  if (intent === "unfollow-goal") {
    await followGoal(user.id, Number(form.get("sdg")), false, Date.now());
    return saved(request, "notify.updateSuccess");
  }
  if (intent === "delete-search") {
    await deleteSavedSearch(user.id, Number(form.get("id")));
    return saved(request, "notify.updateSuccess");
  }
  if (intent === "unlink-orcid") {
    const unlinked = await attempt(() => unlinkOrcid(user.id));
    if (unlinked instanceof Refused) return flashRedirect(request, "/personal/Setting?section=account#orcid", "error", unlinked.key);
    return saved(request, "notify.orcidUnlinked");
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
    const headers = new Headers([["Set-Cookie", clearTokenCookie(request)]]);
    return flashRedirect(request, "/login", "info", "notify.accountDeleted", { headers });
  }
  const member = Number(form.get("member"));
  if (intent === "unblock" && Number.isInteger(member) && member > 0) {
    await unblock(user.id, member);
    return saved(request, "safety.unblockDone");
  }
  throw data(null, { status: 400 });
}
