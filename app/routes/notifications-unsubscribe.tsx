import { useTranslation } from "react-i18next";
import { data, Form } from "react-router";
import { kindsMailed, signedTopic, stopTopic, type Topic, undoStop } from "~/.server/notifications/unsubscribe";
import { PageTitle } from "~/components/page-title";
import { PublicPage } from "~/components/public-page";
import { Button } from "~/components/ui/button";
import type { NotificationKind } from "~/lib/notifications";
import type { PageHandle } from "~/lib/page-handle";
import type { Route } from "./+types/notifications-unsubscribe";

// A member's one-click unsubscribe (app/.server/notifications/unsubscribe.ts): opening the link
// asks (a mail scanner that follows links stops nothing); the button, or a mail client's one-click
// POST (RFC 8058), stops the topic's mail; the answer says what was turned off and offers to undo
// it (signed for exactly those kinds). No session is needed: the link is signed for its member and
// topic, so the one-click post is taken from a mail provider's own origin too (same-origin.ts).

type State = "ask" | "done" | "undone" | "invalid";
interface Answer {
  state: State;
  topic: Topic | null;
  kinds: NotificationKind[];
  link: { m: string; k: string; t: string } | null;
  /** The signature of the undo for `kinds` (after a stop). */
  undo: string;
}

const invalid = () => data<Answer>({ state: "invalid", topic: null, kinds: [], link: null, undo: "" }, { status: 400 });
const linkOf = (params: URLSearchParams | FormData) => ({
  m: String(params.get("m")),
  k: String(params.get("k")),
  t: String(params.get("t")),
});

export async function loader({ request }: Route.LoaderArgs) {
  const params = new URL(request.url).searchParams;
  const signed = await signedTopic(params);
  if (!signed) return invalid();
  const kinds = await kindsMailed(signed.member, signed.topic);
  return { state: kinds.length ? "ask" : "done", topic: signed.topic, kinds, link: linkOf(params), undo: "" } satisfies Answer;
}

export async function action({ request }: Route.ActionArgs) {
  // The page's forms carry the link in their body (and post to the link itself); a mail client's
  // one-click post carries it in the query only, with a body of "List-Unsubscribe=One-Click".
  const form = await request.formData().catch(() => null);
  const params = form?.has("t") ? form : new URL(request.url).searchParams;
  const signed = await signedTopic(params);
  if (!signed) return invalid();
  if (params.get("intent") === "undo") {
    // Back to the topic's channel, for exactly the kinds the stop turned off (its signature says which).
    const kinds = await undoStop(signed.member, signed.topic, params.getAll("kind").map(String), String(params.get("u") ?? ""));
    if (!kinds) return invalid();
    return { state: "undone", topic: signed.topic, kinds, link: linkOf(params), undo: "" } satisfies Answer;
  }
  const { kinds, undo } = await stopTopic(signed.member, signed.topic);
  return { state: "done", topic: signed.topic, kinds, link: linkOf(params), undo } satisfies Answer;
}

export const handle: PageHandle = { scripts: false };

export default function NotificationsUnsubscribe({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const { state, topic, kinds, link, undo } = actionData ?? loaderData;
  const topicName =
    topic === "daily" || topic === "weekly" ? t(`notifications.channels.${topic}`) : topic ? t(`notifications.kinds.${topic}`) : "";
  const hidden = link ? (
    <>
      <input type="hidden" name="m" value={link.m} />
      <input type="hidden" name="k" value={link.k} />
      <input type="hidden" name="t" value={link.t} />
    </>
  ) : null;
  const list = (
    <ul className="list-disc pl-5" data-testid="unsubscribe-kinds">
      {kinds.map((kind) => (
        <li key={kind}>{t(`notifications.kinds.${kind}`)}</li>
      ))}
    </ul>
  );
  return (
    <PublicPage titleKey="unsubscribe">
      <PageTitle titleKey="unsubscribe" />
      {state === "invalid" ? (
        <p role="alert">{t("unsubscribe.invalid")}</p>
      ) : state === "ask" ? (
        <Form method="post" className="space-y-4">
          <p>{t("unsubscribe.askMember", { topic: topicName })}</p>
          {list}
          {hidden}
          <Button type="submit">{t("unsubscribe.confirm")}</Button>
        </Form>
      ) : state === "undone" ? (
        <p role="status" data-testid="unsubscribe-state">
          {t("unsubscribe.undone", { topic: topicName })}
        </p>
      ) : (
        <Form method="post" className="space-y-4">
          <p role="status" data-testid="unsubscribe-state">
            {kinds.length ? t("unsubscribe.doneMember", { topic: topicName }) : t("unsubscribe.nothing", { topic: topicName })}
          </p>
          {kinds.length ? list : null}
          {hidden}
          <input type="hidden" name="intent" value="undo" />
          <input type="hidden" name="u" value={undo} />
          {kinds.map((kind) => (
            <input key={kind} type="hidden" name="kind" value={kind} />
          ))}
          {kinds.length ? (
            <Button type="submit" variant="outline">
              {t("unsubscribe.undo")}
            </Button>
          ) : null}
          <p className="text-sm">
            <a href="/personal/Setting?section=notifications#notifications" className="text-brand underline underline-offset-2">
              {t("unsubscribe.preferences")}
            </a>
          </p>
        </Form>
      )}
    </PublicPage>
  );
}
