import { createMimeMessage } from "mimetext/browser";
import type { MailAttachment } from "./message";
import type { OutboxMail } from "./outbox";

// A kept mail as the RFC 5322 message a provider would send (local outbox only: the raw .eml that
// mail parsers and clients read), made by mimetext rather than by hand.

export function rawMail(mail: OutboxMail, from: string): string {
  const message = createMimeMessage();
  message.setSender(from);
  message.setRecipient(mail.to_email);
  message.setSubject(mail.subject);
  for (const [name, value] of Object.entries(JSON.parse(mail.headers ?? "{}") as Record<string, string>)) message.setHeader(name, value);
  // mimetext labels the encoding; the data is given encoded.
  message.addMessage({ contentType: "text/plain", data: base64(mail.body), encoding: "base64" });
  if (mail.html) message.addMessage({ contentType: "text/html", data: base64(mail.html), encoding: "base64" });
  for (const file of JSON.parse(mail.attachments ?? "[]") as MailAttachment[])
    message.addAttachment({ filename: file.filename, contentType: file.contentType, data: base64(file.content) });
  return message.asRaw();
}

/** UTF-8 text as base64. */
function base64(text: string): string {
  let binary = "";
  for (const byte of new TextEncoder().encode(text)) binary += String.fromCharCode(byte);
  return btoa(binary);
}
