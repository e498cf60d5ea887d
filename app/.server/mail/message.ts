// What a mail is, for the adapters that send it (mail.ts picks one).

export interface MailAttachment {
  filename: string;
  contentType: string;
  /** Text content (an iCalendar file); sent base64-encoded. */
  content: string;
}

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  /** The same content as HTML (app/.server/mail/html.ts); the text part is always there too. */
  html?: string;
  attachments?: MailAttachment[];
  /** Extra headers (List-Unsubscribe and List-Unsubscribe-Post for mail to outside addresses). */
  headers?: Record<string, string>;
  /** The same key again sends nothing more (the provider's Idempotency-Key): for mail a queued job may repeat. */
  idempotencyKey?: string;
}
