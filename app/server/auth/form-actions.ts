import type { Submission } from "@conform-to/react";
import { data } from "react-router";
import { AccountError } from "~/server/accounts/accounts";
import { accountErrorMessage, accountErrorStatus } from "~/server/accounts/messages";

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
