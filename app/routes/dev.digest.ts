import { devDigest } from "~/.server/dev/dev-tools";
import type { Route } from "./+types/dev.digest";

/** POST {email}: that member's weekly digest, now (local builds only; the cron sends it from 08:00 on their clocks). */
export async function action({ request }: Route.ActionArgs) {
  const { email } = (await request.json().catch(() => ({}))) as { email?: string };
  const sent = email ? await devDigest(email, Date.now()) : null;
  return sent ? Response.json({ sent }) : new Response(null, { status: 404 });
}
