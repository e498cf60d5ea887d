import { z } from "zod";
import { login, logout, register, resetPassword, sendVerificationCode } from "~/.server/accounts/accounts";
import type { SessionUser } from "~/.server/accounts/sessions";
import { translator } from "~/.server/i18n/translate";
import { Refused } from "~/.server/refused";
import { TOKEN_TYPE } from "~/.server/web/auth/cookies";
import { PASSWORD_MAX } from "~/lib/limits";
import { code, email, newPassword } from "~/lib/schemas/auth";
import { cleanString } from "~/lib/schemas/text";
import * as answers from "./answers";
import type { ApiContext } from "./context";
import { forAnyone, forMember, REFUSAL } from "./define";
import { ok, refusalAnswer } from "./envelope";

// The spec's /users and auth calls over the same accounts service the pages use.
export const loginBody = z.object({
  email,
  pwd: z
    .string({ error: "validation.passwordEmpty" })
    .min(1, "validation.passwordEmpty")
    .max(PASSWORD_MAX, `validation.passwordTooLong|max=${PASSWORD_MAX}`),
});
export const sendCodeBody = z.object({ email, purpose: z.enum(["register", "reset"]).default("register") });
export const registerBody = z
  .object({
    email,
    code,
    pwd: newPassword,
    nick_name: cleanString("validation.fieldEmpty|field=fields.nickName").min(1, "validation.fieldEmpty|field=fields.nickName").max(50),
    account_type: z.union([z.literal(1), z.literal(2)], { error: "validation.accountTypeInvalid" }),
    kind: z.enum(["individual", "facilitator"]).default("individual"),
    organisation: cleanString("validation.inputEmpty").max(120).optional(),
  })
  .refine((b) => b.kind === "individual" || Boolean(b.organisation), {
    path: ["organisation"],
    message: "validation.fieldEmpty|field=fields.organisation",
  });
export const forgotBody = z.object({ email });
export const resetBody = z.object({ email, code, pwd: newPassword });

const publicUser = (user: SessionUser) => ({
  account_type: user.account_type,
  id: user.id,
  nick_name: user.nick_name,
  image: user.image,
});

const session = (token: string, user: SessionUser) => ({ token_type: TOKEN_TYPE, access_token: token, user: publicUser(user) });

const accountInfo = (user: SessionUser) =>
  ok({
    user: {
      ...publicUser(user),
      email: user.email,
      kind: user.kind,
      organisation: user.organisation,
      membership: user.membership,
      language: user.language,
      orcid: user.orcid,
    },
  });

async function sendCode(ctx: ApiContext, email: string, purpose: "register" | "reset") {
  await sendVerificationCode(email, purpose, ctx);
  return ok(null, translator(ctx.language)("notify.sendSuccess"));
}

export const userRoutes = [
  forAnyone({
    method: "POST",
    path: "/users/login",
    summary: "Log in with email and password",
    body: loginBody,
    answers: { 200: answers.session, 401: REFUSAL, 403: REFUSAL, 429: REFUSAL },
    handle: async ({ ctx, body }) => {
      const { token, user } = await login(body.email, body.pwd, ctx);
      return ok(session(token, user));
    },
  }),
  forAnyone({
    method: "POST",
    path: "/users/send-verification-code",
    summary: "Send a 6-digit code (valid 10 minutes, one a minute); the same answer for every email",
    body: sendCodeBody,
    answers: { 200: z.null(), 429: REFUSAL },
    handle: ({ ctx, body }) => sendCode(ctx, body.email, body.purpose),
  }),
  forAnyone({
    method: "POST",
    path: "/users/register",
    summary: "Create an account with a code from send-verification-code; answers a session",
    body: registerBody,
    answers: { 201: answers.session, 429: REFUSAL },
    handle: async ({ ctx, body }) => {
      const registration = {
        email: body.email,
        code: body.code,
        password: body.pwd,
        nickName: body.nick_name,
        accountType: body.account_type,
        kind: body.kind,
        organisation: body.organisation,
      };
      const { token, user } = await register(registration, ctx);
      return ok(session(token, user), "ok", { status: 201 });
    },
  }),
  forAnyone({
    method: "POST",
    path: "/users/forgot-password",
    summary: "Send a password-reset code; the same answer for every email",
    body: forgotBody,
    answers: { 200: z.null(), 429: REFUSAL },
    handle: ({ ctx, body }) => sendCode(ctx, body.email, "reset"),
  }),
  forAnyone({
    method: "POST",
    path: "/users/reset-password",
    summary: "Set a new password with a reset code; ends every session of the member",
    body: resetBody,
    answers: { 200: z.null(), 429: REFUSAL },
    handle: async ({ ctx, body }) => {
      await resetPassword({ email: body.email, code: body.code, password: body.pwd }, ctx);
      return ok(null, translator(ctx.language)("notify.resetPasswordSuccess"));
    },
  }),
  // A member's account details: only the member may read them (403 for anyone else).
  forMember({
    method: "GET",
    path: "/users/{id}",
    summary: "A member's own account details (403 for anyone else's)",
    answers: { 200: answers.account, 403: REFUSAL },
    handle: ({ ctx, member, params: [id] }) =>
      String(member.user.id) === id
        ? accountInfo(member.user)
        : refusalAnswer(ctx.language, new Refused("errorPage.title401", { status: 403 })),
  }),
  forMember({
    method: "GET",
    path: "/auth/info",
    summary: "The member behind the token",
    answers: { 200: answers.account },
    handle: ({ member }) => accountInfo(member.user),
  }),
  forMember({
    method: "DELETE",
    path: "/auth/logout",
    summary: "End this session",
    answers: { 200: z.null() },
    handle: async ({ member }) => {
      await logout(member.token);
      return ok(null);
    },
  }),
];
