import { newToken } from "~/.server/security/crypto";

/**
 * Known devices (OWASP's "device cookies"): a browser that has signed in to an account, or proved
 * the account's mailbox with a reset code, carries a proof for it and is not slowed by the
 * account-wide failure limit, so guessing from elsewhere cannot lock the member out of their own
 * browsers. The cookie is the browser's own random id, then one proof per account: an HMAC of the
 * email, the account's current password hash and that id, under the current pepper. So each browser
 * holds its own value, and a password change or reset (a new hash) forgets every browser at once:
 * a copied cookie stops counting then (issue 30). A rotated pepper forgets them too, which only means
 * one more slow-down at worst.
 */
/** Accounts one browser remembers (a shared computer); the oldest goes first. */
const MAX_ACCOUNTS = 5;
const PART = /^[\w-]{22,43}$/;

async function proofFor(secret: string, email: string, credential: string, browser: string): Promise<string> {
  const key = await crypto.subtle.importKey("raw", new TextEncoder().encode(secret), { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
  const message = `device:${email.toLowerCase()}:${credential}:${browser}`;
  const mac = await crypto.subtle.sign("HMAC", key, new TextEncoder().encode(message));
  return btoa(String.fromCharCode(...new Uint8Array(mac).slice(0, 16)))
    .replaceAll("+", "-")
    .replaceAll("/", "_")
    .replace(/=+$/, "");
}

/** The browser's id and the proofs it holds (an older cookie's first proof reads as an id, and proves nothing). */
function read(cookie: string | undefined) {
  const [browser = "", ...proofs] = (cookie ?? "").split(".").filter((part) => PART.test(part));
  return { browser, proofs };
}

/** Whether the cookie proves this browser signed in to the account (whose password hash is `credential`) since its last change. */
export async function isKnownDevice(
  secret: string,
  email: string,
  credential: string | null,
  cookie: string | undefined,
): Promise<boolean> {
  const { browser, proofs } = read(cookie);
  return credential !== null && proofs.length > 0 && proofs.includes(await proofFor(secret, email, credential, browser));
}

/** What the browser's cookie holds once it remembers this browser for `email` too (keeping its id, or giving it one). */
export async function rememberedDevice(secret: string, email: string, credential: string, cookie: string | undefined): Promise<string> {
  const held = read(cookie);
  const browser = held.proofs.length > 0 || held.browser ? held.browser : newToken();
  const proof = await proofFor(secret, email, credential, browser);
  const proofs = [...held.proofs.filter((p) => p !== proof), proof].slice(-MAX_ACCOUNTS);
  return [browser, ...proofs].join(".");
}
