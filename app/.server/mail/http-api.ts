import type { MailMessage } from "./message";

export interface HttpMailConfig {
  apiUrl: string;
  apiKey: string;
  from: string;
}

/**
 * Sends through a transactional mail provider's HTTP API in the widely used Resend shape:
 * POST {apiUrl}/emails, Bearer key, JSON {from, to: [..], subject, text, html?, headers?, attachments?: [{filename,
 * content_type, content (base64)}]}; 200 answers {id}. An Idempotency-Key header makes a repeat send nothing new.
 */
export async function sendWithHttpApi(message: MailMessage, config: HttpMailConfig, fetcher: typeof fetch): Promise<string> {
  const response = await fetcher(`${config.apiUrl.replace(/\/$/, "")}/emails`, {
    method: "POST",
    headers: {
      Authorization: `Bearer ${config.apiKey}`,
      "Content-Type": "application/json",
      ...(message.idempotencyKey ? { "Idempotency-Key": message.idempotencyKey } : {}),
    },
    body: JSON.stringify({
      from: config.from,
      to: [message.to],
      subject: message.subject,
      text: message.text,
      ...(message.html ? { html: message.html } : {}),
      ...(message.headers ? { headers: message.headers } : {}),
      ...(message.attachments?.length
        ? {
            attachments: message.attachments.map((a) => ({
              filename: a.filename,
              content_type: a.contentType,
              content: base64(a.content),
            })),
          }
        : {}),
    }),
  });
  if (!response.ok) throw new Error(`mail provider answered ${response.status}: ${await response.text()}`);
  const { id } = (await response.json()) as { id?: string };
  if (!id) throw new Error("mail provider answered without an id");
  return id;
}

/** UTF-8 text as base64. */
function base64(text: string): string {
  let binary = "";
  for (const byte of new TextEncoder().encode(text)) binary += String.fromCharCode(byte);
  return btoa(binary);
}
