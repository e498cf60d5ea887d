import { parseWithZod } from "@conform-to/zod/v4";
import { useTranslation } from "react-i18next";
import { data, Form, Link, redirect } from "react-router";
import type { z } from "zod";
import { conversationFor, listConversations, sendMessage, startConversation } from "~/.server/messaging/conversations";
import { conversationRoom } from "~/.server/messaging/live";
import { attempt, Refused } from "~/.server/refused";
import { NOT_AVAILABLE } from "~/.server/social/block-rules";
import { optionalUser, requireUser } from "~/.server/web/auth/session";
import { isOwnNavigation } from "~/.server/web/security/same-origin";
import { refusalNotice, refusalReply } from "~/.server/web/shell/refusals";
import { Avatar } from "~/components/avatar";
import { MessageText } from "~/components/message-text";
import { PageTitle } from "~/components/page-title";
import { RelativeTime } from "~/components/relative-time";
import { ReportForm } from "~/components/report-form";
import { Button } from "~/components/ui/button";
import { translateError } from "~/lib/form-errors";
import { MESSAGE_MAX } from "~/lib/limits";
import { liveLabel } from "~/lib/live-label";
import type { PageHandle } from "~/lib/page-handle";
import { messageSchema } from "~/lib/schemas/message";
import type { Message } from "~/lib/shapes";
import { getFormProps, useForm } from "~/lib/use-form";
import { cn } from "~/lib/utils";
import type { Route } from "./+types/message";

const openId = (request: Request) => Number(new URL(request.url).searchParams.get("conversation")) || null;

// Opening a conversation marks it read before any loader runs, so the layout's badge already counts it;
// only when the member opened it (here, or typed), never from another site's link.
// The conversation is live from a small module, app/enhance/conversation.ts (docs/decisions/0046).
export const handle: PageHandle = { modules: ["conversation"] };

export const middleware: Route.MiddlewareFunction[] = [
  async ({ request, context }, next) => {
    const user = optionalUser(context);
    const id = openId(request);
    // The room marks only its own members' reads: no D1 trip here.
    if (user && id && request.method === "GET" && isOwnNavigation(request)) await conversationRoom(id).read(id, user.id);
    return next();
  },
];

/** What the conversation's room may answer a message sent live with: the page carries their translations. */
const ROOM_ERRORS = [
  NOT_AVAILABLE,
  "notify.requestFailed",
  "validation.inputEmpty",
  "validation.hiddenCharacters",
  `validation.messageTooLong|max=${MESSAGE_MAX}`,
];

export async function loader({ request, context }: Route.LoaderArgs) {
  const user = requireUser(request, context);
  const id = openId(request);
  const conversations = await listConversations(user.id);
  const base = { conversations, me: user.id, clientId: crypto.randomUUID(), now: Date.now(), roomErrors: ROOM_ERRORS };
  if (!id) return { ...base, open: null };
  const conversation = await conversationFor(id, user.id);
  // Not a member: the same answer as for a conversation that does not exist.
  if (!conversation) throw data(null, { status: 404 });
  const before = Number(new URL(request.url).searchParams.get("before")) || undefined;
  const page = await conversationRoom(id).history(id, { before });
  return { ...base, open: { ...conversation, ...page, before } };
}

export async function action({ request, context }: Route.ActionArgs) {
  const user = requireUser(request, context);
  const form = await request.formData();
  if (form.get("intent") === "start") {
    const other = Number(form.get("member"));
    const started = await attempt(() => startConversation(user.id, other, Date.now()));
    if (started instanceof Refused) return refusalNotice(request, `/personal?member=${other}`, started);
    return redirect(`/message?conversation=${started.id}`, { status: 303 });
  }
  const id = openId(request);
  if (!id) throw data(null, { status: 404 });
  const submission = parseWithZod(form, { schema: messageSchema });
  if (submission.status !== "success") return data({ composer: submission.reply() }, { status: 400 });
  // The room answers membership itself: no D1 trip on the way to a message.
  const sent = await attempt(() => sendMessage(id, user.id, submission.value));
  if (sent instanceof Refused) {
    const { reply, status } = refusalReply(submission, sent);
    return data({ composer: reply }, { status });
  }
  return redirect(`/message?conversation=${id}`, { status: 303 });
}

type Data = Route.ComponentProps["loaderData"];

/** The words of a relative time (lib/relative-time.ts), for the times of messages that arrive live. */
const TIME_KEYS = ["time.justNow", "time.minutesAgo", "time.hoursAgo", "time.oneDayAgo"];

export default function MessagePage({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const { conversations, open, now } = loaderData;
  // minmax(0, …) columns: a long last message is truncated rather than widening the page.
  return (
    <div className="grid grid-cols-1 gap-4 lg:grid-cols-[18rem_minmax(0,1fr)]">
      <PageTitle titleKey="message" />
      {/* The conversation module puts this page's list again in place when a new message arrives. */}
      <nav aria-label={t("route.message")} className={cn(open ? "hidden lg:block" : "")} data-conversation-list>
        {conversations.length === 0 ? <p className="text-sm text-slate-600">{t("message.none")}</p> : null}
        <ul className="divide-y divide-slate-100 rounded-lg border border-slate-200 bg-white" data-testid="conversations">
          {conversations.map((c) => (
            <li key={c.id}>
              <Link
                to={`/message?conversation=${c.id}`}
                aria-current={open?.id === c.id ? "page" : undefined}
                className={cn("flex items-center gap-3 p-3 hover:bg-slate-50", open?.id === c.id && "bg-sky-50")}
              >
                <Avatar image={c.other.image} name={c.other.nick_name || t("member.deletedMember")} />
                <span className="min-w-0 flex-1">
                  <span className="flex items-baseline justify-between gap-2">
                    <span className="truncate font-medium">{c.other.nick_name || t("member.deletedMember")}</span>
                    {c.last_message ? (
                      <span className="shrink-0 text-xs text-slate-600">
                        <RelativeTime date={new Date(c.last_message.created_at)} now={new Date(now)} />
                      </span>
                    ) : null}
                  </span>
                  <span className="flex items-center justify-between gap-2">
                    <span className="truncate text-sm text-slate-600">{c.last_message?.body ?? t("message.noMessages")}</span>
                    {c.unread_count > 0 ? (
                      <span className="rounded-full bg-red-500 px-1.5 text-xs text-white" data-testid="conversation-unread">
                        {c.unread_count > 99 ? "99+" : c.unread_count}
                      </span>
                    ) : null}
                  </span>
                </span>
              </Link>
            </li>
          ))}
        </ul>
      </nav>
      {open ? (
        <Conversation data={loaderData} open={open} actionData={actionData} />
      ) : (
        <p className="hidden self-center text-center text-slate-500 lg:block">{t("message.choose")}</p>
      )}
    </div>
  );
}

/** One message as a bubble: the member's own on the right, the other's on the left with "Report". */
function Bubble({ message, mine, now }: { message: Message; mine: boolean; now: number }) {
  return (
    <li
      data-id={message.id || undefined}
      data-sender={message.sender_id || undefined}
      className={cn("max-w-[80%] rounded-lg px-3 py-2", mine ? "self-end bg-brand text-white" : "self-start bg-slate-100")}
    >
      <MessageText text={message.body} />
      {/* Colours that read at 4.5:1 on each bubble (an opacity did not, on the brand blue). */}
      <span className={cn("text-[11px]", mine ? "text-blue-100" : "text-slate-600")}>
        <RelativeTime date={new Date(message.created_at)} now={new Date(now)} />
      </span>
      {mine ? null : <ReportForm target="message" id={message.id} />}
    </li>
  );
}

/**
 * The open conversation: its history, and a composer that posts as a plain form. The conversation
 * module (app/enhance/conversation.ts) makes it live; it builds new bubbles from the templates here,
 * so a message reads the same whichever way it arrived.
 */
function Conversation({
  data: { me, clientId, now, roomErrors },
  open,
  actionData,
}: {
  data: Data;
  open: NonNullable<Data["open"]>;
  actionData: Route.ComponentProps["actionData"];
}) {
  const { t, i18n } = useTranslation();
  const [form, fields] = useForm<z.input<typeof messageSchema>>({ lastResult: actionData?.composer });
  const fieldError = fields.body.errors?.[0];
  const error = fieldError ?? form.errors?.[0] ?? null;
  const template: Message = { id: 0, conversation_id: open.id, sender_id: 0, client_id: "", body: "", created_at: now };
  return (
    <section
      className="flex min-h-[60vh] flex-col rounded-lg border border-slate-200 bg-white"
      data-testid="conversation"
      data-live="disconnected"
      data-conversation={open.id}
      data-me={me}
    >
      {/* The first paint waits for the composer (React puts this link in the head): on a slow network a
          partly arrived history moved the composer as the rest came in. */}
      <link rel="expect" href="#message-body" blocking="render" />
      <header className="flex items-center gap-3 border-b border-slate-100 p-3">
        <Link to="/message" className="text-sm text-brand lg:hidden">
          ← {t("route.message")}
        </Link>
        <Avatar image={open.image} name={open.nick_name || t("member.deletedMember")} />
        <Link to={`/personal?member=${open.other_id}`} className="font-medium hover:text-brand">
          {open.nick_name || t("member.deletedMember")}
        </Link>
      </header>
      {/* Reversed, so the list starts scrolled to the newest message, with or without JavaScript. */}
      <div className="flex max-h-[60vh] flex-1 flex-col-reverse overflow-y-auto p-3">
        <div className="flex flex-col gap-2">
          {open.has_more ? (
            <Link
              to={`/message?conversation=${open.id}&before=${open.messages[0]?.id ?? ""}`}
              preventScrollReset
              className="self-center text-sm text-brand underline underline-offset-2"
              data-testid="older-messages"
            >
              {t("message.older")}
            </Link>
          ) : null}
          <ol
            className="flex flex-col gap-2"
            data-testid="messages"
            data-times={JSON.stringify(Object.fromEntries(TIME_KEYS.map((key) => [key, liveLabel(t, i18n.language, key)])))}
          >
            {open.messages.map((m) => (
              <Bubble key={m.id} message={m} mine={m.sender_id === me} now={now} />
            ))}
          </ol>
          {open.before ? (
            <Link to={`/message?conversation=${open.id}`} className="self-center text-sm text-brand underline underline-offset-2">
              {t("message.newest")}
            </Link>
          ) : null}
        </div>
      </div>
      <Form
        method="post"
        {...getFormProps(form)}
        className="flex flex-col gap-1 border-t border-slate-100 p-3"
        data-testid="composer"
        data-errors={JSON.stringify(Object.fromEntries(roomErrors.map((key) => [key, translateError(t, key)])))}
      >
        <input type="hidden" name="client_id" value={clientId} />
        <label htmlFor="message-body" className="sr-only">
          {t("message.write")}
        </label>
        <div className="flex items-end gap-2">
          <textarea
            id="message-body"
            name="body"
            rows={2}
            defaultValue={fields.body.initialValue ?? ""}
            placeholder={t("message.write")}
            aria-invalid={fieldError ? true : undefined}
            aria-describedby={form.errorId}
            className="min-h-10 flex-1 rounded-md border border-slate-300 px-3 py-2 text-sm"
          />
          <Button type="submit">{t("message.send")}</Button>
        </div>
        <p id={form.errorId} role="alert" className="text-sm text-red-600 empty:hidden" data-testid="message-error">
          {error ? translateError(t, error) : null}
        </p>
      </Form>
      {/* After the composer: parsed last, so a slow network paints the form before them. */}
      <template data-bubble="mine">
        <Bubble message={template} mine now={now} />
      </template>
      <template data-bubble="theirs">
        <Bubble message={template} mine={false} now={now} />
      </template>
      <template data-bubble="pending">
        <li className="max-w-[80%] self-end rounded-lg bg-brand/60 px-3 py-2 text-white" data-testid="pending-message">
          <MessageText text="" />
          <span className="text-[11px] opacity-70">{t("message.sending")}</span>
        </li>
      </template>
    </section>
  );
}
