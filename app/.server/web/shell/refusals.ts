import type { Submission } from "@conform-to/zod/v4";
import { data } from "react-router";
import { Refused } from "~/.server/refused";
import type { FormReply } from "~/lib/use-form";
import { flashRedirect } from "./flash";

// The one place pages turn a service's refusal into an answer (docs/decisions/0037), as
// `refusalAnswer` is the API's: beside a form's fields (or above it), or, for what a button did, as
// a notice on the page the member goes back to. A 404 about no field means what the page acts on
// is not there (or not the member's to see): the page answers 404. Anything that is not a refusal
// is thrown on (a 500).

const notFound = (error: Refused) => error.status === 404 && !error.field;

/** Never sent back to a form, whatever was refused. */
export const SECRET_FIELDS = ["currentPassword", "password", "confirmPassword"];

/** What a form sent: Conform's submission of it, or the fields of a post read only once (`Refused.sent`). */
type Sent = Submission<unknown> | Readonly<Record<string, string>>;

const isSubmission = (sent: Sent): sent is Submission<unknown> => typeof sent.reply === "function";

/** The form's reply: each key beside its field (or above the form), what was typed kept (passwords aside); and its status. */
export function refusalReply(sent: Sent | undefined, error: unknown): { reply: FormReply; status: number } {
  if (!(error instanceof Refused)) throw error;
  if (notFound(error)) throw data(null, { status: 404 });
  const fieldErrors = Object.fromEntries(Object.entries(error.fields).map(([field, keys]) => [field, [...keys]]));
  const formErrors = Object.keys(fieldErrors).length ? [] : [error.key];
  const given = sent ?? error.sent;
  if (given && isSubmission(given))
    return { reply: given.reply({ hideFields: SECRET_FIELDS, fieldErrors, formErrors }), status: error.status };
  const errors = { ...fieldErrors, ...(formErrors.length ? { "": formErrors } : {}) };
  const initialValue = given && Object.fromEntries(Object.entries(given).filter(([name]) => !SECRET_FIELDS.includes(name)));
  const reply: FormReply = { status: "error", ...(initialValue ? { initialValue } : {}), error: errors };
  return { reply, status: error.status };
}

/** What a button (or a trip elsewhere) did, refused: back to `to` with the refusal's notice; `headers` as flashRedirect's. */
export function refusalNotice(request: Request, to: string, error: unknown, headers?: Headers): Response {
  if (!(error instanceof Refused)) throw error;
  if (notFound(error)) throw data(null, { status: 404 });
  return flashRedirect(request, to, "error", error.key, { headers });
}
