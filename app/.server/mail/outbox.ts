import { env } from "~/.server/bindings";
import type { MailMessage } from "./message";

/** Keeps a message; one whose idempotency key is already kept is not kept again (as the provider would not send it). */
export async function saveToOutbox(message: MailMessage, now: number) {
  const saved = await env.DB.prepare(
    `INSERT INTO mail_outbox (to_email, subject, body, attachments, created_at, idempotency_key, headers, html) VALUES (?, ?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT (idempotency_key) WHERE idempotency_key IS NOT NULL DO NOTHING`,
  )
    .bind(
      message.to,
      message.subject,
      message.text,
      message.attachments?.length ? JSON.stringify(message.attachments) : null,
      now,
      message.idempotencyKey ?? null,
      message.headers ? JSON.stringify(message.headers) : null,
      message.html ?? null,
    )
    .run();
  if (saved.meta.changes) console.log(`[mail] to ${message.to}: ${message.subject}\n${message.text}`);
}

export interface OutboxMail {
  id: number;
  to_email: string;
  subject: string;
  body: string;
  /** JSON of MailAttachment[], or null. */
  attachments: string | null;
  /** JSON of the extra headers, or null. */
  headers: string | null;
  /** The HTML part, or null. */
  html: string | null;
  created_at: number;
}

export async function listOutbox(limit = 50): Promise<OutboxMail[]> {
  const { results } = await env.DB.prepare("SELECT * FROM mail_outbox ORDER BY id DESC LIMIT ?").bind(limit).all<OutboxMail>();
  return results;
}

export async function outboxMail(id: number): Promise<OutboxMail | null> {
  return env.DB.prepare("SELECT * FROM mail_outbox WHERE id = ?").bind(id).first<OutboxMail>();
}
