import { base64url, fromBase64url, randomBytes, timingSafeEqual } from "~/.server/security/crypto";
import { COMMON_PASSWORDS } from "./common-passwords";

// PBKDF2-SHA256 at production Workers' maximum of 100,000 iterations, peppered with a secret
// (HMAC of the password), stored in PHC format: $pbkdf2-sha256$i=100000,p=<pepper id>$<salt>$<hash>.
// The pepper id lets operators rotate the pepper without locking anyone out (docs/operations.md);
// hashes written before ids existed name no pepper and mean pepper "1".
export const PBKDF2_ITERATIONS = 100_000;

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

export interface Pepper {
  id: string;
  secret: string;
}

export async function hashPassword(password: string, pepper: Pepper): Promise<string> {
  const salt = randomBytes(16);
  const hash = await derive(password, pepper.secret, salt, PBKDF2_ITERATIONS);
  return `$pbkdf2-sha256$i=${PBKDF2_ITERATIONS},p=${pepper.id}$${base64url(salt)}$${base64url(hash)}`;
}

const PHC = /^\$pbkdf2-sha256\$i=(\d+)(?:,p=([a-z0-9]{1,16}))?\$([\w-]+)\$([\w-]+)$/;

/** The id of the pepper a stored hash was made with (null when it is not one of ours). */
export function pepperIdOf(phc: string): string | null {
  const match = PHC.exec(phc);
  return match ? (match[2] ?? "1") : null;
}

/** Whether a stored hash is already what hashPassword makes today (its pepper id named, full iterations). */
export function isCurrentHash(phc: string, pepperId: string): boolean {
  const match = PHC.exec(phc);
  return match?.[2] === pepperId && Number(match[1]) === PBKDF2_ITERATIONS;
}

/** Checks a password against a stored hash with the pepper the hash names, from `peppers` (id -> secret). */
export async function verifyPassword(password: string, phc: string, peppers: ReadonlyMap<string, string>): Promise<boolean> {
  const match = PHC.exec(phc);
  if (!match) return false;
  const iterations = Number(match[1]);
  if (iterations < 1 || iterations > PBKDF2_ITERATIONS) return false;
  const pepper = peppers.get(match[2] ?? "1");
  const expected = fromBase64url(match[4] ?? "");
  // A retired pepper that is no longer configured still costs one derivation: no timing difference.
  const actual = await derive(password, pepper ?? "no pepper configured", fromBase64url(match[3] ?? ""), iterations);
  return pepper !== undefined && timingSafeEqual(actual, expected);
}

/** A hash that matches nothing, verified when an email is unknown so both paths take the same time. */
export const DUMMY_HASH = `$pbkdf2-sha256$i=${PBKDF2_ITERATIONS}$AAAAAAAAAAAAAAAAAAAAAA$AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA`;

export function isCommonPassword(password: string): boolean {
  return COMMON_PASSWORDS.has(password.toLowerCase());
}
