import type { Submission } from "@conform-to/zod/v4";
import { Refused } from "~/.server/refused";

/**
 * A service's refusal as a page's form shows it: Conform's reply with the message beside its field
 * (or above the form), and the status it means. Anything that is not a refusal is thrown on (a 500).
 */
export function refusalReply(submission: Submission<unknown>, error: unknown, hideFields?: string[]) {
  if (!(error instanceof Refused)) throw error;
  const reply = submission.reply({
    hideFields,
    ...(error.field ? { fieldErrors: { [error.field]: [error.key] } } : { formErrors: [error.key] }),
  });
  return { reply, status: error.status };
}
