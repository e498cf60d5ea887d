import { env } from "~/.server/bindings";

/**
 * Asks the rate-limiting binding whether `key` (a client address or an account) may go on.
 * The limit and period are set on the binding in wrangler.toml.
 */
export async function allowRequest(limiter: RateLimit, key: string): Promise<boolean> {
  const { success } = await limiter.limit({ key });
  return success;
}

/** The per-member budget the API and the costly page forms share (an avatar's re-encoding, a meeting). */
export const allowMemberCall = (memberId: number) => allowRequest(env.API_LIMITER, `member:${memberId}`);

/** The client address as Cloudflare reports it; locally there is none, so all share one bucket. */
export function clientAddress(request: Request): string {
  return request.headers.get("CF-Connecting-IP") ?? "local";
}
