import { config } from "~/.server/config/config";
import { Refused } from "~/.server/refused";

// What the account service refuses (sign-up, login, codes, passwords): one kind of Refused, with
// its code for the service's own checks and the key, field and status members and programs read.

export type AccountErrorCode =
  | "invalid_credentials"
  | "rate_limited"
  | "throttled"
  | "account_throttled"
  | "code_invalid"
  | "code_expired"
  | "code_exhausted"
  | "code_too_soon"
  | "email_taken"
  | "password_common"
  | "current_password_wrong"
  | "suspended";

export class AccountError extends Refused {
  constructor(
    readonly code: AccountErrorCode,
    field?: "email" | "code" | "password" | "currentPassword",
    retryAfter?: number,
    /** Why a suspended account is suspended (a report reason). */
    readonly reason?: string,
  ) {
    super(keyOf(code, retryAfter, reason), { status: STATUS[code] ?? 400, field, retryAfter });
  }
}

const KEYS: Record<AccountErrorCode, string> = {
  invalid_credentials: "validation.invalidCredentials",
  rate_limited: "validation.rateLimited",
  throttled: "validation.throttled",
  account_throttled: "validation.accountThrottled",
  code_invalid: "validation.codeInvalid",
  code_expired: "validation.codeExpired",
  code_exhausted: "validation.codeExhausted",
  code_too_soon: "validation.codeTooSoon",
  email_taken: "validation.emailTaken",
  password_common: "validation.passwordCommon",
  current_password_wrong: "validation.currentPasswordWrong",
  suspended: "safety.suspended",
};

/** 429 for limits, 401 for wrong credentials, 403 for a suspension, else 400. */
const STATUS: Partial<Record<AccountErrorCode, number>> = {
  rate_limited: 429,
  throttled: 429,
  account_throttled: 429,
  code_too_soon: 429,
  invalid_credentials: 401,
  suspended: 403,
};

function keyOf(code: AccountErrorCode, retryAfter?: number, reason?: string) {
  if (reason) return `${KEYS[code]}|reason=safety.reasons.${reason}|address=${config().appealAddress}`;
  return retryAfter === undefined ? KEYS[code] : `${KEYS[code]}|seconds=${retryAfter}`;
}
