import { createContext, type MiddlewareFunction, redirect } from "react-router";
import { clearCookie, readCookie, serializeCookie } from "~/.server/http/cookies";
import { isPrefetch } from "~/.server/web/shell/prefetch";
import type { Flash } from "~/lib/shapes";

const FLASH_COOKIE = "flash";

export const flashContext = createContext<Flash | null>(null);

/**
 * The one way a notice reaches the next page: a redirect to `to` (303 after a form post, with or
 * without JavaScript) carrying it in a short-lived cookie; `headers` holds any other cookies the
 * answer sets (a session, a language).
 */
export function flashRedirect(
  request: Request,
  to: string,
  kind: Flash["kind"],
  key: string,
  { headers = new Headers(), status = 303 }: { headers?: Headers; status?: number } = {},
) {
  headers.append("Set-Cookie", flashCookie(request, kind, key));
  return redirect(to, { status, headers });
}

function flashCookie(request: Request, kind: Flash["kind"], key: string): string {
  const flash: Flash = { id: crypto.randomUUID().slice(0, 8), kind, key };
  return serializeCookie(request, FLASH_COOKIE, JSON.stringify(flash), { maxAge: 60 });
}

function parseFlash(raw: string | undefined): Flash | null {
  if (!raw) return null;
  try {
    const value = JSON.parse(raw) as Partial<Flash>;
    const kindOk = value.kind === "success" || value.kind === "error" || value.kind === "info";
    // A translation key of any namespace (any refusal may come back as a notice), its values plain words.
    const keyOk = typeof value.key === "string" && /^[a-z]+\.[A-Za-z]+(\|[a-z]+=[\w.]+)*$/.test(value.key);
    if (!kindOk || !keyOk || typeof value.id !== "string") return null;
    return value as Flash;
  } catch {
    return null;
  }
}

/**
 * Hands the pending flash to loaders, and clears it once a page has actually been rendered with it
 * (a prefetched page neither shows nor takes it: the member may never open that page).
 */
export const flashMiddleware: MiddlewareFunction<Response> = async ({ request, context }, next) => {
  const flash = isPrefetch(request) ? null : parseFlash(readCookie(request, FLASH_COOKIE));
  context.set(flashContext, flash);
  const response = await next();
  const shown = request.method === "GET" && response.status === 200;
  const replaced = response.headers.getSetCookie().some((c) => c.startsWith(`${FLASH_COOKIE}=`));
  if (flash && shown && !replaced) response.headers.append("Set-Cookie", clearCookie(request, FLASH_COOKIE));
  return response;
};
