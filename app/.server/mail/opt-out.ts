import { env } from "~/.server/bindings";
import { config } from "~/.server/config/config";
import { base64url, hmac, sha256Hex, signedUnder } from "~/.server/security/crypto";

// Meeting invitations reach addresses that never signed up. Each carries a link that stops them for
// that address (and the RFC 8058 one-click header): the link's token is an HMAC of the address under
// a key derived from the pepper, so it cannot be made for another address, and needs no table of
// tokens. What is stored is a hash of the address, never the address.

const normal = (address: string) => address.trim().toLowerCase();
const mac = (secret: string, address: string) => hmac(`mail-opt-out:${secret}`, normal(address));

/** The token of the stop link for this address (made with the current pepper). */
export async function optOutToken(address: string): Promise<string> {
  return base64url(await mac(config().pepper.secret, address));
}

/** The stop link for this address on the site at `origin`. */
export async function optOutUrl(origin: string, address: string): Promise<string> {
  const query = new URLSearchParams({ address: normal(address), token: await optOutToken(address) });
  return `${origin}/unsubscribe?${query}`;
}

/** Whether the token is this address's, under the current pepper or any older one still configured. */
export const validOptOut = (address: string, token: string): Promise<boolean> =>
  signedUnder(config().pepper.byId.values(), token, (secret) => mac(secret, address));

const hashOf = (address: string) => sha256Hex(`mail-opt-out:${normal(address)}`);

/** Records the stop for this address (a repeat changes nothing). */
export async function optOut(address: string, now: number) {
  await env.DB.prepare("INSERT OR IGNORE INTO mail_opt_outs (address_hash, created_at) VALUES (?, ?)")
    .bind(await hashOf(address), now)
    .run();
}

export async function optedOut(address: string): Promise<boolean> {
  return (
    (await env.DB.prepare("SELECT 1 FROM mail_opt_outs WHERE address_hash = ?")
      .bind(await hashOf(address))
      .first()) !== null
  );
}
