import { translator } from "~/.server/i18n/translate";
import { languageOf } from "~/.server/web/i18n/request-language";
import { escapeHtml } from "~/lib/escape-html";
import type { Language } from "~/lib/i18n";

type PageKey = "Error" | "Unavailable" | "TooLarge" | "CrossOrigin";

/**
 * An answer given without React Router (it failed, or never ran): the API's `{code, message,
 * request_id}` envelope below /api, elsewhere a small translated page. Both carry the request id
 * the log line has.
 */
export function errorAnswer(
  request: Request,
  status: number,
  key: PageKey,
  requestId: string,
  headers: Record<string, string> = {},
): Response {
  const lang: Language = languageOf(request);
  const t = translator(lang);
  const title = t(`errorPage.title${key}`);
  const init = { status, headers: { "Cache-Control": "no-store", ...headers } };
  const { pathname } = new URL(request.url);
  if (pathname === "/api" || pathname.startsWith("/api/")) {
    return Response.json({ code: status, message: title, request_id: requestId }, init);
  }
  const body = t(`errorPage.body${key}`);
  const reference = t("errorPage.requestId", { id: requestId });
  const html = `<!doctype html><html lang="${lang}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${escapeHtml(title)} - ${escapeHtml(t("product.title"))}</title></head><body style="font-family:system-ui,sans-serif;max-width:32rem;margin:15vh auto;padding:0 1rem;text-align:center;color:#1e293b"><h1>${escapeHtml(title)}</h1><p>${escapeHtml(body)}</p><p style="color:#64748b;font-size:.875rem">${escapeHtml(reference)}</p></body></html>`;
  return new Response(html, { ...init, headers: { ...init.headers, "Content-Type": "text/html; charset=utf-8" } });
}
