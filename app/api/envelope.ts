import { translator } from "~/.server/i18n/translate";
import { NOT_AVAILABLE } from "~/.server/social/blocks";
import type { Language } from "~/lib/i18n";

/** The API's envelope (spec section 7): code 0 is success; anything else carries a message. */
export const API_CODES = {
  ok: 0,
  badRequest: 400,
  wrongCredentials: 401,
  forbidden: 403,
  notFound: 404,
  methodNotAllowed: 405,
  tooManyRequests: 429,
  sessionExpired: 4010,
} as const;

export function ok<T>(data: T, message = "ok", init?: ResponseInit) {
  return Response.json({ code: API_CODES.ok, message, data }, init);
}

const NOT_FOUND = {
  item: "content.notFound",
  member: "member.notFound",
  conversation: "message.notFound",
  call: "errorPage.title404",
} as const;

/** The one 404 answer, saying what was not found (an item, a member, a conversation, a call). */
export const notFound = (language: Language, what: keyof typeof NOT_FOUND) =>
  fail(404, API_CODES.notFound, translator(language)(NOT_FOUND[what]));

/** A refusal that does not say why (a block): 403 with the neutral message. */
export const notAvailable = (language: Language) => fail(403, API_CODES.forbidden, translator(language)(NOT_AVAILABLE));

export function fail(status: number, code: number, message: string, errors?: Record<string, string[]>) {
  return Response.json({ code, message, ...(errors ? { errors } : {}) }, { status });
}
