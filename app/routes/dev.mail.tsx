import { useTranslation } from "react-i18next";
import type { MailAttachment } from "~/.server/mail/message";
import { listOutbox } from "~/.server/mail/outbox";
import { PageTitle } from "~/components/page-title";
import { PublicPage } from "~/components/public-page";
import { RelativeTime } from "~/components/relative-time";
import type { Route } from "./+types/dev.mail";

/** The local outbox, so a newcomer can read verification codes. Only local builds have this route. */
export async function loader() {
  return { mails: await listOutbox(), now: Date.now() };
}

export default function DevMail({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  return (
    <PublicPage titleKey="devMail">
      <PageTitle titleKey="devMail" />
      <p className="mb-4 text-sm text-slate-600">{t("devMail.intro")}</p>
      {loaderData.mails.length === 0 ? <p>{t("devMail.empty")}</p> : null}
      <ol className="flex flex-col gap-3">
        {loaderData.mails.map((mail) => (
          <li key={mail.id} className="rounded-md border border-slate-200 bg-white p-3 text-sm" data-testid="mail">
            <p className="text-xs text-slate-500">
              {t("devMail.to")}: <span data-testid="mail-to">{mail.to_email}</span> ·{" "}
              <RelativeTime date={new Date(mail.created_at)} now={new Date(loaderData.now)} />
            </p>
            <p className="font-medium">{mail.subject}</p>
            <p className="whitespace-pre-wrap" data-testid="mail-body">
              {mail.body}
            </p>
            {mail.html ? (
              <details className="mt-2" data-testid="mail-html">
                <summary>{t("devMail.html")}</summary>
                <iframe
                  title={t("devMail.html")}
                  sandbox=""
                  srcDoc={mail.html}
                  className="h-64 w-full rounded border border-slate-200 bg-white"
                />
              </details>
            ) : null}
            {mail.headers ? (
              <dl className="mt-2 text-xs text-slate-600" data-testid="mail-headers">
                {Object.entries(JSON.parse(mail.headers) as Record<string, string>).map(([name, value]) => (
                  <div key={name} className="break-all">
                    <dt className="inline font-medium">{name}: </dt>
                    <dd className="inline" data-header={name}>
                      {value}
                    </dd>
                  </div>
                ))}
              </dl>
            ) : null}
            <a href={`/dev/mail/${mail.id}.eml`} className="mt-1 inline-block text-xs text-brand underline" data-testid="mail-raw">
              {t("devMail.raw")}
            </a>
            {(JSON.parse(mail.attachments ?? "[]") as MailAttachment[]).map((file) => (
              <details key={file.filename} className="mt-2" data-testid="mail-attachment">
                <summary>
                  {file.filename} ({file.contentType})
                </summary>
                <pre className="overflow-x-auto text-xs">{file.content}</pre>
              </details>
            ))}
          </li>
        ))}
      </ol>
    </PublicPage>
  );
}
