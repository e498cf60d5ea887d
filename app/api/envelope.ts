import { translator } from "~/.server/i18n/translate";
import { Refused } from "~/.server/refused";
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
  refusalAnswer(language, new Refused(NOT_FOUND[what], { status: 404 }));

/** A refusal that does not say why (a block): 403 with the neutral message. */
export const notAvailable = (language: Language) => refusalAnswer(language, new Refused(NOT_AVAILABLE, { status: 403 }));

export function fail(status: number, code: number, message: string, errors?: Record<string, string[]>): RefusalAnswer {
  return Response.json({ code, message, ...(errors ? { errors } : {}) }, { status }) as RefusalAnswer;
}

/**
 * A refusal, answered the same way for every call, the router's checks and the services' alike: its
 * status, translated message, and each field's translated messages (snake_case names).
 */
export function refusalAnswer(language: Language, error: Refused): RefusalAnswer {
  const t = translator(language);
  const fields = Object.entries(error.fields).map(([field, keys]) => [snakeName(field), keys.map((key) => translateError(t, key))]);
  const response = fail(error.status, error.status, translateError(t, error.key), fields.length ? Object.fromEntries(fields) : undefined);
  if (error.retryAfter) response.headers.set("Retry-After", String(error.retryAfter));
  return response;
}
