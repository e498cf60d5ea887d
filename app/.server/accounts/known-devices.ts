import { serializeCookie } from "~/.server/http/cookies";

/**
 * Known devices (OWASP's "device cookies"): a browser that has signed in to an account, or proved
 * the account's mailbox with a reset code, carries a proof for it and is not slowed by the
 * account-wide failure limit, so guessing from elsewhere cannot lock the member out of their own
 * browsers. The proof is an HMAC of the email under the current pepper; a rotated pepper forgets
 * every device, which only means one more slow-down at worst.
 */
export const KNOWN_DEVICE_COOKIE = "device";
/** Accounts one browser remembers (a shared computer); the oldest goes first. */
const MAX_ACCOUNTS = 5;
const ONE_YEAR_S = 365 * 24 * 60 * 60;

async function proofFor(secret: string, email: string): Promise<string> {
  const key = await crypto.subtle.importKey("raw", new TextEncoder().encode(secret), { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
  const mac = await crypto.subtle.sign("HMAC", key, new TextEncoder().encode(`device:${email.toLowerCase()}`));
  return btoa(String.fromCharCode(...new Uint8Array(mac).slice(0, 16)))
    .replaceAll("+", "-")
    .replaceAll("/", "_")
    .replace(/=+$/, "");
}

const proofsIn = (cookie: string | undefined) => (cookie ?? "").split(".").filter((proof) => /^[\w-]{22}$/.test(proof));

export async function isKnownDevice(secret: string, email: string, cookie: string | undefined): Promise<boolean> {
  const proofs = proofsIn(cookie);
  return proofs.length > 0 && proofs.includes(await proofFor(secret, email));
}

/** The cookie that remembers this browser for `email` too. */
export async function knownDeviceCookie(request: Request, secret: string, email: string, cookie: string | undefined): Promise<string> {
  const proof = await proofFor(secret, email);
  const proofs = [...proofsIn(cookie).filter((p) => p !== proof), proof].slice(-MAX_ACCOUNTS);
  return serializeCookie(request, KNOWN_DEVICE_COOKIE, proofs.join("."), { maxAge: ONE_YEAR_S });
}
