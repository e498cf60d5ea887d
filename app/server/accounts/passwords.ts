import { COMMON_PASSWORDS } from "./common-passwords";
import { base64url, fromBase64url, randomBytes, timingSafeEqual } from "./crypto";

// PBKDF2-SHA256 at production Workers' maximum of 100,000 iterations, peppered with a secret
// (HMAC of the password), stored in PHC format: $pbkdf2-sha256$i=100000$<salt>$<hash>.
export const PBKDF2_ITERATIONS = 100_000;
export const PASSWORD_MIN = 8;
export const PASSWORD_MAX = 256;

const encoder = new TextEncoder();

async function peppered(password: string, pepper: string): Promise<ArrayBuffer> {
  const key = await crypto.subtle.importKey("raw", encoder.encode(pepper), { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
  return crypto.subtle.sign("HMAC", key, encoder.encode(password.normalize("NFKC")));
}

async function derive(password: string, pepper: string, salt: Uint8Array<ArrayBuffer>, iterations: number): Promise<Uint8Array> {
  const key = await crypto.subtle.importKey("raw", await peppered(password, pepper), "PBKDF2", false, ["deriveBits"]);
  const bits = await crypto.subtle.deriveBits({ name: "PBKDF2", hash: "SHA-256", salt, iterations }, key, 256);
  return new Uint8Array(bits);
}

export async function hashPassword(password: string, pepper: string): Promise<string> {
  const salt = randomBytes(16);
  const hash = await derive(password, pepper, salt, PBKDF2_ITERATIONS);
  return `$pbkdf2-sha256$i=${PBKDF2_ITERATIONS}$${base64url(salt)}$${base64url(hash)}`;
}

export async function verifyPassword(password: string, phc: string, pepper: string): Promise<boolean> {
  const match = /^\$pbkdf2-sha256\$i=(\d+)\$([\w-]+)\$([\w-]+)$/.exec(phc);
  if (!match) return false;
  const iterations = Number(match[1]);
  if (iterations < 1 || iterations > PBKDF2_ITERATIONS) return false;
  const expected = fromBase64url(match[3] ?? "");
  const actual = await derive(password, pepper, fromBase64url(match[2] ?? ""), iterations);
  return timingSafeEqual(actual, expected);
}

/** A hash that matches nothing, verified when an email is unknown so both paths take the same time. */
export const DUMMY_HASH = `$pbkdf2-sha256$i=${PBKDF2_ITERATIONS}$AAAAAAAAAAAAAAAAAAAAAA$AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA`;

export function isCommonPassword(password: string): boolean {
  return COMMON_PASSWORDS.has(password.toLowerCase());
}
