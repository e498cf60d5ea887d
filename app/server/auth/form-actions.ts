import type { Submission } from "@conform-to/react";
import { data, type RouterContextProvider } from "react-router";
import { AccountError, logout } from "~/server/accounts/accounts";
import { accountErrorMessage, accountErrorStatus } from "~/server/accounts/messages";
import { tokenCookie } from "./cookies";
import { sessionContext } from "./session";

const SECRET_FIELDS = ["password", "confirmPassword"];

/** A failed form post: status 400 with Conform's reply; password fields are never sent back. */
export function invalid(submission: Submission<unknown>) {
  return data({ result: submission.reply({ hideFields: SECRET_FIELDS }), notice: null }, { status: 400 });
}

/** An account error shown beside its field (or above the form), with the right status. */
export function accountFailure(submission: Submission<unknown>, error: unknown) {
  if (!(error instanceof AccountError)) throw error;
  const message = accountErrorMessage(error);
  const result = submission.reply({
    hideFields: SECRET_FIELDS,
    ...(error.field ? { fieldErrors: { [error.field]: [message] } } : { formErrors: [message] }),
  });
  return data({ result, notice: null }, { status: accountErrorStatus(error) });
}

/** "Send Success": the form comes back with what was typed (passwords aside) and a notice. */
export function codeSent(submission: Submission<unknown>) {
  return data({ result: submission.reply({ hideFields: SECRET_FIELDS }), notice: "notify.sendSuccess" });
}

/**
 * Signs the browser in with a fresh token: any session the cookie held before is ended first, so a
 * token planted before login (session fixation) never becomes a member's session.
 */
export async function signInHeaders(request: Request, context: Readonly<RouterContextProvider>, token: string) {
  const previous = context.get(sessionContext).token;
  if (previous) await logout(previous);
  const headers = new Headers();
  headers.append("Set-Cookie", tokenCookie(request, token));
  return headers;
}
