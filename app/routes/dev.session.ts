import { hashPassword } from "~/.server/accounts/passwords";
import { createSession } from "~/.server/accounts/sessions";
import { env } from "~/.server/bindings";
import { config } from "~/.server/config/config";
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
  const input = (await request.json().catch(() => ({}))) as {
    email?: string;
    nick_name?: string;
    account_type?: 1 | 2;
    kind?: "individual" | "facilitator";
    organisation?: string;
    password?: string;
  };
  const now = Date.now();
  let member = input.email
    ? await env.DB.prepare("SELECT id, email FROM users WHERE email = ?").bind(input.email).first<{ id: number; email: string }>()
    : null;
  if (!member) {
    const email =
      input.email ?? `${(input.nick_name ?? "member").toLowerCase().replace(/\W/g, "")}-${crypto.randomUUID().slice(0, 8)}@e2e.test`;
    const hash = await hashPassword(input.password ?? "research-demo-2026", config().pepper);
    member = await env.DB.prepare(
      `INSERT INTO users (email, password_hash, account_type, kind, nick_name, organisation, language, created_at)
       VALUES (?, ?, ?, ?, ?, ?, 'en', ?) RETURNING id, email`,
    )
      .bind(email, hash, input.account_type ?? 1, input.kind ?? "individual", input.nick_name ?? "Member", input.organisation ?? null, now)
      .first<{ id: number; email: string }>();
  }
  if (!member) return new Response(null, { status: 500 });
  const token = await createSession(member.id, now);
  return Response.json({ id: member.id, email: member.email, token }, { headers: { "Set-Cookie": tokenCookie(request, token) } });
}
