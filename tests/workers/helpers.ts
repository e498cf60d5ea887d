import { env } from "cloudflare:workers";
import type { Caller } from "~/server/accounts/accounts";

/** A caller with its own client address and a clock the test controls; mail is awaited by `settle`. */
export function testCaller(now = Date.UTC(2026, 10, 22, 9, 0)) {
  const pending: Promise<unknown>[] = [];
  const caller: Caller = {
    client: `test-${crypto.randomUUID()}`,
    now,
    language: "en",
    waitUntil: (promise) => pending.push(promise),
  };
  return { caller, settle: () => Promise.all(pending.splice(0)) };
}

export const uniqueEmail = (prefix = "member") => `${prefix}-${crypto.randomUUID().slice(0, 8)}@test.example`;

export async function outboxFor(email: string) {
  const { results } = await env.DB.prepare("SELECT subject, body FROM mail_outbox WHERE to_email = ? ORDER BY id").bind(email).all<{
    subject: string;
    body: string;
  }>();
  return results;
}

export async function mailedCode(email: string): Promise<string> {
  const mails = await outboxFor(email);
  const code = /\b(\d{6})\b/.exec(mails.at(-1)?.body ?? "")?.[1];
  if (!code) throw new Error(`no code mailed to ${email}`);
  return code;
}
