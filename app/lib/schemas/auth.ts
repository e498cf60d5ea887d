import { z } from "zod";
import { EMAIL_MAX, NICK_NAME_MAX, ORGANISATION_MAX, PASSWORD_MAX, PASSWORD_MIN } from "~/lib/limits";
import { cleanString, requiredLine, requiredText } from "./text";

// The forms' and the API's rules, judged on the server (docs/decisions/0011). Messages are
// translation keys; "key|name=value" carries interpolation values (see lib/form-errors.ts).

export const email = z
  .email({ error: (issue) => (issue.input === undefined || issue.input === "" ? "validation.emailEmpty" : "validation.emailFormat") })
  .max(EMAIL_MAX, "validation.emailFormat");
export const code = z.string({ error: "validation.codeEmpty" }).regex(/^\d{6}$/, "validation.codeFormat");
export const newPassword = z
  .string({ error: "validation.passwordEmpty" })
  .min(PASSWORD_MIN, `validation.passwordTooShort|min=${PASSWORD_MIN}`)
  .max(PASSWORD_MAX, `validation.passwordTooLong|max=${PASSWORD_MAX}`);
const confirmPassword = z.string({ error: "validation.confirmPasswordEmpty" });

const samePasswords = (value: { password?: string; confirmPassword?: string }) => value.password === value.confirmPassword;
/** A password a member may leave out (signing up with ORCID): empty means none. */
const blankAsNone = (schema: z.ZodType<string>) => z.preprocess((value) => (value === "" ? undefined : value), schema.optional());
/**
 * Said with every other refusal at the first submit, not after them: zod runs an object's refinement
 * only when all its fields passed, unless `when` says otherwise (here: whenever both were typed).
 */
const differ = {
  path: ["confirmPassword"],
  message: "validation.passwordsDiffer",
  when: ({ value }: { value: unknown }) => {
    const typed = value as { password?: unknown; confirmPassword?: unknown } | null;
    return typeof typed?.password === "string" && typeof typed.confirmPassword === "string";
  },
};

export const loginSchema = z.object({
  email,
  password: z.string({ error: "validation.passwordEmpty" }).max(PASSWORD_MAX, `validation.passwordTooLong|max=${PASSWORD_MAX}`),
  redirect: z.string().optional(),
});

export const sendCodeSchema = z.object({ intent: z.literal("send-code"), email });

export const ACCOUNT_TYPES = ["1", "2"] as const;
export const KINDS = ["individual", "facilitator"] as const;
export type Kind = (typeof KINDS)[number];

/** Sign-up's form; with an ORCID iD authenticated, the password is optional (the iD is a way in). */
export function signupSchema(kind: Kind, withOrcid = false) {
  return z
    .object({
      intent: z.literal("register"),
      accountType: z.enum(ACCOUNT_TYPES, { error: "validation.accountTypeInvalid" }),
      email,
      code,
      password: withOrcid ? blankAsNone(newPassword) : newPassword,
      confirmPassword: withOrcid ? blankAsNone(confirmPassword) : confirmPassword,
      nickName: requiredLine("nickName", NICK_NAME_MAX),
      organisation:
        kind === "facilitator" ? requiredText("organisation", ORGANISATION_MAX) : cleanString("validation.inputEmpty").optional(),
    })
    .refine(samePasswords, differ);
}

export const resetSchema = z
  .object({ intent: z.literal("reset"), email, code, password: newPassword, confirmPassword })
  .refine(samePasswords, differ);

/** Changing the password while signed in: the current one, and the new one twice. */
export const changePasswordSchema = z
  .object({
    currentPassword: z
      .string({ error: "validation.fieldEmpty|field=fields.currentPassword" })
      .min(1, "validation.fieldEmpty|field=fields.currentPassword")
      .max(PASSWORD_MAX, `validation.passwordTooLong|max=${PASSWORD_MAX}`),
    password: newPassword,
    confirmPassword,
  })
  .refine(samePasswords, differ);

/** Deleting one's account: the password, and a ticked confirmation. */
export const deleteAccountSchema = z.object({
  password: z
    .string({ error: "validation.fieldEmpty|field=fields.currentPassword" })
    .min(1, "validation.fieldEmpty|field=fields.currentPassword")
    .max(PASSWORD_MAX, `validation.passwordTooLong|max=${PASSWORD_MAX}`),
  confirm: z.preprocess((value) => value === "on" || value === true, z.literal(true, { error: "validation.deleteConfirm" })),
});

/** The "send code" button posts the same form with its own intent: only the email is checked then. */
export function schemaForIntent<T extends z.ZodType>(formData: FormData, main: T) {
  return formData.get("intent") === "send-code" ? sendCodeSchema : main;
}
