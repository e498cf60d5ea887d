import { config } from "~/.server/config/config";
import { translator } from "~/.server/i18n/translate";
import { mailHtml, mailText } from "~/.server/mail/html";
import type { MailMessage } from "~/.server/mail/message";
import type { NotificationKind } from "~/lib/notifications";
import { unsubscribeHeaders, unsubscribeUrl } from "./unsubscribe";

/**
 * A mail about one notification kind, sent at once: its text and HTML parts, a link to what it is
 * about, the preferences, and the one-click unsubscribe for that kind (link and RFC 8058 headers).
 */
export async function noticeMail(notice: {
  member: number;
  to: string;
  language: string;
  kind: NotificationKind;
  subject: string;
  paragraphs: string[];
  /** A path on this site, or null when the mail says everything. */
  target: string | null;
  idempotencyKey?: string;
}): Promise<MailMessage> {
  const t = translator(notice.language);
  const origin = config().siteUrl;
  const content = {
    language: notice.language,
    title: notice.subject,
    paragraphs: notice.paragraphs,
    sections: notice.target
      ? [{ heading: t(`notifications.kinds.${notice.kind}`), links: [{ text: t("digest.open"), href: `${origin}${notice.target}` }] }]
      : [],
    footer: [
      { text: t("digest.preferences"), href: `${origin}/personal/Setting?section=notifications#notifications` },
      { text: t("digest.unsubscribeKind"), href: await unsubscribeUrl(origin, notice.member, notice.kind) },
    ],
  };
  return {
    to: notice.to,
    subject: notice.subject,
    text: mailText(content),
    html: mailHtml(content),
    headers: await unsubscribeHeaders(origin, notice.member, notice.kind),
    ...(notice.idempotencyKey ? { idempotencyKey: notice.idempotencyKey } : {}),
  };
}
