import { config } from "~/.server/config/config";
import type { AccountError, AccountErrorCode } from "./accounts";

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

/** The translation key (with values) for an account error, as pages and the API both show it. */
export function accountErrorMessage(error: AccountError): string {
  const key = KEYS[error.code];
  if (error.reason) return `${key}|reason=safety.reasons.${error.reason}|address=${config().appealAddress}`;
  return error.retryAfter === undefined ? key : `${key}|seconds=${error.retryAfter}`;
}

/** HTTP status for an account error: 429 for limits, 401 for wrong credentials, else 400. */
export function accountErrorStatus(error: AccountError): number {
  if (error.code === "rate_limited" || error.code === "throttled" || error.code === "account_throttled" || error.code === "code_too_soon")
    return 429;
  if (error.code === "invalid_credentials") return 401;
  if (error.code === "suspended") return 403;
  return 400;
}
