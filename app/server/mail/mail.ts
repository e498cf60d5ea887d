import { env } from "~/server/bindings";
import { secret } from "~/server/settings";
import { sendWithHttpApi } from "./http-api";
import { saveToOutbox } from "./outbox";

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
}

/**
 * The one way to send mail. MAIL_PROVIDER picks the adapter: "outbox" (local: kept in D1, printed,
 * shown at /dev/mail) or "http" (a provider's HTTP API, Resend-compatible: MAIL_API_URL, MAIL_FROM,
 * secret MAIL_API_KEY).
 */
export async function sendMail(message: MailMessage, fetcher: typeof fetch = fetch): Promise<void> {
  const provider: string = env.MAIL_PROVIDER;
  if (provider === "http") {
    const apiKey = secret("MAIL_API_KEY");
    if (!apiKey) throw new Error("MAIL_API_KEY is not set");
    await sendWithHttpApi(message, { apiUrl: env.MAIL_API_URL, apiKey, from: env.MAIL_FROM }, fetcher);
    return;
  }
  await saveToOutbox(env.DB, message, Date.now());
}
