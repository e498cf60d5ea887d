import { SESSION_ABSOLUTE_MS } from "~/.server/accounts/sessions";
import { clearCookie, readCookie, serializeCookie } from "~/.server/http/cookies";

// The spec's token cookie: the token type, a space, then the access token.
export const TOKEN_COOKIE = "token";
export const TOKEN_TYPE = "Bearer" as const;

function parseBearer(value: string | null | undefined): string | null {
  const match = /^Bearer ([\w-]{20,100})$/.exec(value ?? "");
  return match?.[1] ?? null;
}

/** A page request's session token (from the cookie). */
export const tokenFromCookie = (request: Request) => parseBearer(readCookie(request, TOKEN_COOKIE));

/** An API request's session token (from the Authorization header). */
export const tokenFromHeader = (request: Request) => parseBearer(request.headers.get("Authorization"));

export function tokenCookie(request: Request, token: string): string {
  return serializeCookie(request, TOKEN_COOKIE, `${TOKEN_TYPE} ${token}`, { maxAge: SESSION_ABSOLUTE_MS / 1000 });
}

export const clearTokenCookie = (request: Request) => clearCookie(request, TOKEN_COOKIE);

/** The spec's signal for an expired session (code 4010): a cookie named point set to 401. */
export const pointCookie = (request: Request) => serializeCookie(request, "point", "401", { maxAge: 300, httpOnly: false });
/** Signing in ends it: the login page stops saying the session expired. */
export const clearPointCookie = (request: Request) => serializeCookie(request, "point", "", { maxAge: 0, httpOnly: false });
/** Whether the visitor came here because their session expired (the login page says so until they sign in). */
export const sessionJustExpired = (request: Request) => readCookie(request, "point") === "401";

/** A known device's cookie (accounts/known-devices.ts): the browser's id and its proofs, kept a year. */
export const KNOWN_DEVICE_COOKIE = "device";
export const knownDeviceCookie = (request: Request, value: string) =>
  serializeCookie(request, KNOWN_DEVICE_COOKIE, value, { maxAge: 365 * 24 * 60 * 60 });
