const encoder = new TextEncoder();

export function base64url(bytes: Uint8Array): string {
  return btoa(String.fromCharCode(...bytes))
    .replace(/\+/g, "-")
    .replace(/\//g, "_")
    .replace(/=+$/, "");
}

export function fromBase64url(text: string): Uint8Array<ArrayBuffer> {
  const b64 = text.replace(/-/g, "+").replace(/_/g, "/");
  return Uint8Array.from(atob(b64 + "=".repeat((4 - (b64.length % 4)) % 4)), (c) => c.charCodeAt(0));
}

export function randomBytes(length: number): Uint8Array<ArrayBuffer> {
  return crypto.getRandomValues(new Uint8Array(length));
}

/** A 256-bit random token, base64url. */
export function newToken(): string {
  return base64url(randomBytes(32));
}

export async function sha256Hex(text: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", encoder.encode(text));
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

/** HMAC-SHA-256 of `message` under `key` (a purpose and a secret: "member-unsubscribe:<pepper>"). */
export async function hmac(key: string, message: string): Promise<Uint8Array> {
  const imported = await crypto.subtle.importKey("raw", encoder.encode(key), { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
  return new Uint8Array(await crypto.subtle.sign("HMAC", imported, encoder.encode(message)));
}

/**
 * Whether `signature` (base64url) is the MAC that `sign` makes under one of `secrets`: the pepper
 * and the older ones still configured, so links and cookies signed before a rotation keep working.
 */
export async function signedUnder(secrets: Iterable<string>, signature: string, sign: (secret: string) => Promise<Uint8Array>) {
  let given: Uint8Array;
  try {
    given = fromBase64url(signature);
  } catch {
    return false;
  }
  for (const secret of secrets) if (timingSafeEqual(await sign(secret), given)) return true;
  return false;
}

/** Compares two equal-purpose strings without leaking where they differ. */
export function timingSafeEqual(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= (a[i] ?? 0) ^ (b[i] ?? 0);
  return diff === 0;
}

/** A 6-digit code from the CSPRNG, without modulo bias. */
export function newCode(): string {
  const limit = 4_294_000_000; // largest multiple of 1e6 below 2^32
  for (;;) {
    const [n = 0] = crypto.getRandomValues(new Uint32Array(1));
    if (n < limit) return String(n % 1_000_000).padStart(6, "0");
  }
}
