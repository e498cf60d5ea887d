import { env } from "./bindings";

/** The one place that knows which deployment this is and where its secrets are. */
export function isLocal(): boolean {
  return env.APP_ENV === "local";
}

// Local runs need no secrets; scripts/demo-data.mjs hashes the demo passwords with the same value.
const LOCAL_PEPPER = "local-development-pepper";

/** The password pepper: a secret (`wrangler secret put PASSWORD_PEPPER`) everywhere but locally. */
export function passwordPepper(): string {
  const secret = (env as unknown as { PASSWORD_PEPPER?: string }).PASSWORD_PEPPER;
  if (secret) return secret;
  if (isLocal()) return LOCAL_PEPPER;
  throw new Error("PASSWORD_PEPPER is not set");
}

export function secret(name: "MAIL_API_KEY"): string | undefined {
  return (env as unknown as Record<string, string | undefined>)[name];
}
