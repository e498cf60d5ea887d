import { env } from "~/.server/bindings";
import { config } from "~/.server/config/config";
import { sendWithHttpApi } from "./http-api";
import { saveToOutbox } from "./outbox";

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
  attachments?: MailAttachment[];
  /** Extra headers (List-Unsubscribe and List-Unsubscribe-Post for mail to outside addresses). */
  headers?: Record<string, string>;
  /** The same key again sends nothing more (the provider's Idempotency-Key): for mail a queued job may repeat. */
  idempotencyKey?: string;
}

/**
 * The one way to send mail. MAIL_PROVIDER picks the adapter: "http" (a provider's HTTP API,
 * Resend-compatible) or, in local builds only, "outbox" (kept in D1, printed, and listed on the local outbox page).
 */
export async function sendMail(message: MailMessage, fetcher: typeof fetch = fetch): Promise<void> {
  const mail = config().mail;
  if (mail.provider === "http") {
    await sendWithHttpApi(message, mail, fetcher);
    return;
  }
  // Deployed builds have no outbox at all: the configuration refuses it, and the build drops the code.
  if (!__LOCAL_BUILD__) throw new Error("the mail outbox exists only in local builds");
  await saveToOutbox(env.DB, message, Date.now());
}
