// XML documents for machines (sitemaps, OAI-PMH; decision 0049).

/** Characters XML 1.0 cannot hold at all (controls, lone surrogates, U+FFFE/FFFF): dropped from member text. */
const NOT_XML = /[^\t\n\r\u0020-\ud7ff\ue000-\ufffd\u{10000}-\u{10ffff}]/gu;

/** Member text as an XML element's text or an attribute's value. */
export const escapeXml = (text: string) =>
  text.replace(NOT_XML, "").replace(/[<>&"']/g, (c) => ({ "<": "&lt;", ">": "&gt;", "&": "&amp;", '"': "&quot;", "'": "&apos;" })[c] ?? c);

/** An XML document as crawlers and harvesters fetch it. */
export const xmlAnswer = (body: string, headers: Record<string, string> = {}) =>
  new Response(`<?xml version="1.0" encoding="UTF-8"?>\n${body}\n`, {
    headers: { "Content-Type": "application/xml; charset=utf-8", "Cache-Control": "public, max-age=3600", ...headers },
  });
