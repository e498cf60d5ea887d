import { ORCID_SIGNUP_MS, ORCID_STATE_MS } from "~/.server/accounts/orcid";
import { clearCookie, readCookie, serializeCookie } from "~/.server/http/cookies";

// The browser's keeping of a trip to ORCID: the whole trip, signed (app/.server/accounts/orcid.ts),
// with the state it must come back with (so nobody can finish a trip in someone else's browser), and
// the token of a sign-up begun with an iD that has no account.

const STATE = "orcid_state";
const SIGNUP = "orcid_signup";

export const orcidStateCookie = (request: Request, trip: string) =>
  serializeCookie(request, STATE, trip, { maxAge: ORCID_STATE_MS / 1000 });
export const readOrcidState = (request: Request) => readCookie(request, STATE);
export const clearOrcidState = (request: Request) => clearCookie(request, STATE);

export const orcidSignupCookie = (request: Request, token: string) =>
  serializeCookie(request, SIGNUP, token, { maxAge: ORCID_SIGNUP_MS / 1000 });
export const readOrcidSignup = (request: Request) => readCookie(request, SIGNUP);
export const clearOrcidSignup = (request: Request) => clearCookie(request, SIGNUP);
