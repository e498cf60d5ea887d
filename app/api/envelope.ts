import { translator } from "~/.server/i18n/translate";
import type { Refused } from "~/.server/refused";
import { NOT_AVAILABLE } from "~/.server/social/block-rules";
import { translateError } from "~/lib/form-errors";
import type { Language } from "~/lib/i18n";
import { snakeName } from "./casing";

/**
 * The API's envelope (spec section 7): code 0 is success; anything else carries a message. The codes
 * the router and the adapters answer themselves; a service's refusal answers its HTTP status as its
 * code (refusalAnswer).
 */
export const API_CODES = {
  ok: 0,
  badRequest: 400,
  forbidden: 403,
  notFound: 404,
  methodNotAllowed: 405,
  tooManyRequests: 429,
  sessionExpired: 4010,
} as const;

declare const answered: unique symbol;
declare const refusal: unique symbol;
/** A success envelope carrying `data` of type T, which define.ts checks against the call's declared answers. */
export type Ok<T> = Response & { readonly [answered]: T };
/** A refusal envelope ({code, message, errors?}). */
export type RefusalAnswer = Response & { readonly [refusal]: true };

export function ok<T>(data: T, message = "ok", init?: ResponseInit): Ok<T> {
  return Response.json({ code: API_CODES.ok, message, data }, init) as Ok<T>;
}

const NOT_FOUND = {
  item: "content.notFound",
  member: "member.notFound",
  conversation: "message.notFound",
  meeting: "meetings.notFound",
  call: "errorPage.title404",
} as const;

/** The one 404 answer, saying what was not found (an item, a member, a conversation, a call). */
export const notFound = (language: Language, what: keyof typeof NOT_FOUND) =>
  fail(404, API_CODES.notFound, translator(language)(NOT_FOUND[what]));

/** A refusal that does not say why (a block): 403 with the neutral message. */
export const notAvailable = (language: Language) => fail(403, API_CODES.forbidden, translator(language)(NOT_AVAILABLE));

/** What a refusal is about: the field (its path's first segment; none for the whole body) and a translation key. */
export interface Refusal {
  path: PropertyKey[];
  message: string;
}

/**
 * The one 400 for bad input, from the router's checks and the handlers' alike: the translated
 * messages per field, the first as the answer's message.
 */
export function refused(language: Language, issues: Refusal[]) {
  const t = translator(language);
  const errors: Record<string, string[]> = {};
  for (const issue of issues) {
    // A body that is not an object at all has no field to blame: it is simply not what the call takes.
    const field = snakeName(String(issue.path[0] ?? ""));
    const message = issue.path.length === 0 ? "validation.inputEmpty" : issue.message;
    errors[field] = [...(errors[field] ?? []), translateError(t, message)];
  }
  return fail(400, API_CODES.badRequest, Object.values(errors)[0]?.[0] ?? t("validation.inputEmpty"), errors);
}

export function fail(status: number, code: number, message: string, errors?: Record<string, string[]>): RefusalAnswer {
  return Response.json({ code, message, ...(errors ? { errors } : {}) }, { status }) as RefusalAnswer;
}

/** A service's refusal, answered the same way for every call: its status, translated message and field. */
export function refusalAnswer(language: Language, error: Refused): RefusalAnswer {
  const message = translateError(translator(language), error.key);
  const response = fail(error.status, error.status, message, error.field ? { [snakeName(error.field)]: [message] } : undefined);
  if (error.retryAfter) response.headers.set("Retry-After", String(error.retryAfter));
  return response;
}
