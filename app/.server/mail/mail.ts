import { config } from "~/.server/config/config";
import { sendWithHttpApi } from "./http-api";
import type { MailMessage } from "./message";
import { saveToOutbox } from "./outbox";

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
  await saveToOutbox(message, Date.now());
}
