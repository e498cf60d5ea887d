/** Reads one cookie from a request. Values are URI-decoded; malformed ones count as absent. */
export function readCookie(request: Request, name: string): string | undefined {
  const header = request.headers.get("Cookie");
  if (!header) return undefined;
  for (const part of header.split(";")) {
    const eq = part.indexOf("=");
    if (eq < 0 || part.slice(0, eq).trim() !== name) continue;
    try {
      return decodeURIComponent(part.slice(eq + 1).trim());
    } catch {
      return undefined;
    }
  }
  return undefined;
}

export interface CookieOptions {
  maxAge?: number;
  httpOnly?: boolean;
}

/** Serialises a first-party cookie: path /, SameSite=Lax, Secure in deployed builds and over https. */
export function serializeCookie(request: Request, name: string, value: string, options: CookieOptions = {}): string {
  const parts = [`${name}=${encodeURIComponent(value)}`, "Path=/", "SameSite=Lax"];
  if (options.maxAge !== undefined) parts.push(`Max-Age=${options.maxAge}`);
  if (options.httpOnly !== false) parts.push("HttpOnly");
  // Deployed builds always say Secure (browsers accept it on a loopback address, which is how the
  // production-like run works over plain http); a local build only over https.
  if (!__LOCAL_BUILD__ || new URL(request.url).protocol === "https:") parts.push("Secure");
  return parts.join("; ");
}

export function clearCookie(request: Request, name: string): string {
  return serializeCookie(request, name, "", { maxAge: 0 });
}

export const ONE_YEAR = 60 * 60 * 24 * 365;
