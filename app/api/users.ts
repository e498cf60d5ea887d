import { z } from "zod";
import { AccountError, login, logout, register, resetPassword, sendVerificationCode } from "~/.server/accounts/accounts";
import { accountErrorMessage, accountErrorStatus } from "~/.server/accounts/messages";
import type { SessionUser } from "~/.server/accounts/sessions";
import { TOKEN_TYPE } from "~/.server/auth/cookies";
import { translator } from "~/.server/i18n/translate";
import { translateError } from "~/lib/form-errors";
import { PASSWORD_MAX } from "~/lib/limits";
import { code, email, newPassword } from "~/lib/schemas/auth";
import { cleanString } from "~/lib/schemas/text";
import { type ApiContext, authenticate } from "./context";
import { API_CODES, fail, ok } from "./envelope";

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

async function parseBody<T extends z.ZodType>(ctx: ApiContext, schema: T): Promise<z.infer<T> | Response> {
  const t = translator(ctx.language);
  let body: unknown;
  try {
    body = await ctx.request.json();
  } catch {
    return fail(400, API_CODES.badRequest, t("validation.inputEmpty"));
  }
  const parsed = schema.safeParse(body);
  if (parsed.success) return parsed.data;
  const errors: Record<string, string[]> = {};
  for (const issue of parsed.error.issues) {
    const field = String(issue.path[0] ?? "");
    errors[field] = [...(errors[field] ?? []), translateError(t, issue.message)];
  }
  return fail(400, API_CODES.badRequest, Object.values(errors)[0]?.[0] ?? t("validation.inputEmpty"), errors);
}

function accountFailure(ctx: ApiContext, error: unknown) {
  if (!(error instanceof AccountError)) throw error;
  const status = accountErrorStatus(error);
  const message = translateError(translator(ctx.language), accountErrorMessage(error));
  const headers = error.retryAfter ? { "Retry-After": String(error.retryAfter) } : undefined;
  const response = fail(
    status,
    status === 401 ? API_CODES.wrongCredentials : status,
    message,
    error.field ? { [error.field]: [message] } : undefined,
  );
  if (headers) response.headers.set("Retry-After", headers["Retry-After"]);
  return response;
}

const session = (token: string, user: SessionUser) => ({ token_type: TOKEN_TYPE, access_token: token, user: publicUser(user) });

export async function postLogin(ctx: ApiContext) {
  const body = await parseBody(ctx, loginBody);
  if (body instanceof Response) return body;
  try {
    const { token, user } = await login(body.email, body.pwd, ctx);
    return ok(session(token, user));
  } catch (error) {
    return accountFailure(ctx, error);
  }
}

export async function postSendCode(ctx: ApiContext) {
  const body = await parseBody(ctx, sendCodeBody);
  if (body instanceof Response) return body;
  return sendCode(ctx, body.email, body.purpose);
}

export async function postForgotPassword(ctx: ApiContext) {
  const body = await parseBody(ctx, forgotBody);
  if (body instanceof Response) return body;
  return sendCode(ctx, body.email, "reset");
}

async function sendCode(ctx: ApiContext, email: string, purpose: "register" | "reset") {
  try {
    await sendVerificationCode(email, purpose, ctx);
    return ok(null, translator(ctx.language)("notify.sendSuccess"));
  } catch (error) {
    return accountFailure(ctx, error);
  }
}

export async function postRegister(ctx: ApiContext) {
  const body = await parseBody(ctx, registerBody);
  if (body instanceof Response) return body;
  try {
    const { token, user } = await register(
      {
        email: body.email,
        code: body.code,
        password: body.pwd,
        nickName: body.nick_name,
        accountType: body.account_type,
        kind: body.kind,
        organisation: body.organisation,
      },
      ctx,
    );
    return ok(session(token, user), "ok", { status: 201 });
  } catch (error) {
    return accountFailure(ctx, error);
  }
}

export async function postResetPassword(ctx: ApiContext) {
  const body = await parseBody(ctx, resetBody);
  if (body instanceof Response) return body;
  try {
    await resetPassword({ email: body.email, code: body.code, password: body.pwd }, ctx);
    return ok(null, translator(ctx.language)("notify.resetPasswordSuccess"));
  } catch (error) {
    return accountFailure(ctx, error);
  }
}

export async function getAuthInfo(ctx: ApiContext) {
  const auth = await authenticate(ctx);
  if (auth instanceof Response) return auth;
  const { user } = auth;
  return ok({
    user: {
      ...publicUser(user),
      email: user.email,
      kind: user.kind,
      organisation: user.organisation,
      membership: user.membership,
      language: user.language,
    },
  });
}

export async function deleteLogout(ctx: ApiContext) {
  const auth = await authenticate(ctx);
  if (auth instanceof Response) return auth;
  await logout(auth.token);
  return ok(null);
}

/** A member's account details: only the member may read them (403 for anyone else). */
export async function getUser(ctx: ApiContext, id: string) {
  const auth = await authenticate(ctx);
  if (auth instanceof Response) return auth;
  if (String(auth.user.id) !== id) return fail(403, API_CODES.forbidden, translator(ctx.language)("errorPage.title401"));
  return getAuthInfo(ctx);
}
