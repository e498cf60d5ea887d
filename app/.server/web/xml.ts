/** An XML document as crawlers fetch it (what it holds is our own numbers and addresses: nothing to escape). */
export const xmlAnswer = (body: string) =>
  new Response(`<?xml version="1.0" encoding="UTF-8"?>\n${body}\n`, {
    headers: { "Content-Type": "application/xml; charset=utf-8", "Cache-Control": "public, max-age=3600" },
  });
