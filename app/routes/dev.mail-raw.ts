import { rawMail } from "~/.server/mail/mime";
import { outboxMail } from "~/.server/mail/outbox";
import type { Route } from "./+types/dev.mail-raw";

/** GET /dev/mail/{id}.eml: a kept mail as the message a provider would send (local builds only). */
export async function loader({ params }: Route.LoaderArgs) {
  const mail = await outboxMail(Number(params.id));
  if (!mail) return new Response("Not found", { status: 404 });
  return new Response(rawMail(mail, "Research Commons <no-reply@research-commons.test>"), {
    headers: {
      "Content-Type": "message/rfc822",
      "Content-Disposition": `attachment; filename="mail-${mail.id}.eml"`,
      "Cache-Control": "no-store",
    },
  });
}
