import { type DevMember, devSession } from "~/.server/dev/dev-tools";
import { tokenCookie } from "~/.server/web/auth/cookies";
import type { Route } from "./+types/dev.session";

/**
 * A signed-in session without the sign-up flow, for browser tests whose subject is not signing up:
 * POST {email} signs that member in; POST {nick_name, account_type?, kind?, organisation?, password?} makes a new
 * member first. Answers {id, email, token} and sets the session cookie. Only local builds have this
 * route (the production test proves the deployed bundle does not contain it).
 */
export async function action({ request }: Route.ActionArgs) {
  if (request.method !== "POST") return new Response(null, { status: 405 });
  const input = (await request.json().catch(() => ({}))) as DevMember;
  const member = await devSession(input, Date.now());
  if (!member) return new Response(null, { status: 500 });
  return Response.json(member, { headers: { "Set-Cookie": tokenCookie(request, member.token) } });
}
