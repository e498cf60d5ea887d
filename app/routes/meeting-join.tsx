import { useTranslation } from "react-i18next";
import { data } from "react-router";
import { meetingTime } from "~/.server/meetings/invitations";
import { hostLink, isJoinable, meetingFor } from "~/.server/meetings/meetings";
import { meetingProvider } from "~/.server/meetings/provider";
import { requireUser } from "~/.server/web/auth/session";
import { requestContext } from "~/.server/web/context";
import { getLocale } from "~/.server/web/i18n/middleware";
import { contentSecurityPolicy, meetingPermissions } from "~/.server/web/security/headers";
import { PageTitle } from "~/components/page-title";
import { Button, buttonVariants } from "~/components/ui/button";
import { MEETING_JOIN_EARLY_MINUTES } from "~/lib/limits";
import type { PageHandle } from "~/lib/page-handle";
import type { Route } from "./+types/meeting-join";

// /liveStreaming/join?id= (hidden child of Meeting): the meeting's details to the host and invited
// members, 404 to anyone else. With JavaScript the room opens here through the provider's iframe
// API; without it, a link opens it in a new tab. This page alone may frame the provider's origin.

// The room in the page and full screen come from the meetings module (docs/decisions/0046).
export const handle: PageHandle = { modules: ["meetings"] };

export async function loader({ request, context }: Route.LoaderArgs) {
  const user = requireUser(request, context);
  const id = Number(new URL(request.url).searchParams.get("id"));
  const meeting = Number.isInteger(id) && id > 0 ? await meetingFor(user.id, id) : null;
  if (!meeting) throw data(null, { status: 404 });
  // The provider the meeting was made on, not necessarily today's.
  const origin = meetingProvider(meeting.provider).origin;
  const { nonce } = context.get(requestContext);
  return data(
    {
      meeting: {
        title: meeting.title,
        agenda: meeting.agenda,
        when: meetingTime(meeting, getLocale(context)),
        duration: meeting.duration_minutes,
        joinUrl: meeting.join_url,
        startUrl: await hostLink(user.id, meeting.id, meetingProvider),
        participants: meeting.participants,
        emails: meeting.emails,
        cancelled: meeting.cancelled_at !== null,
        joinable: isJoinable(meeting, Date.now()),
      },
      origin,
    },
    // Only a provider whose room is framed here widens this page's policy, and only by its origin.
    origin
      ? { headers: { "Content-Security-Policy": contentSecurityPolicy(nonce, origin), "Permissions-Policy": meetingPermissions(origin) } }
      : {},
  );
}

export const headers: Route.HeadersFunction = ({ loaderHeaders }) => loaderHeaders;

/**
 * The room, shown by the meetings module (app/enhance/meetings.ts) through the provider's iframe API,
 * with full screen; hidden without JavaScript, where the link below opens it.
 */
function Room({ origin, joinUrl }: { origin: string; joinUrl: string }) {
  const { t } = useTranslation();
  return (
    <div className="flex flex-col gap-2" hidden data-meeting-room data-origin={origin} data-join-url={joinUrl}>
      <p className="text-sm text-slate-600">{t("meetings.joinIntro")}</p>
      <div className="min-h-[600px] w-full overflow-hidden rounded-md border border-slate-200 bg-slate-900" data-testid="meeting-room" />
      <div className="flex flex-wrap items-center gap-3">
        <Button type="button" variant="outline" size="sm" data-fullscreen>
          {t("meetings.fullScreen")}
        </Button>
        <a href={joinUrl} target="_blank" rel="noopener noreferrer" className="text-sm text-brand">
          {t("meetings.joinLink")}
        </a>
      </div>
      <p role="alert" className="text-sm text-red-700" data-testid="fullscreen-unsupported" hidden>
        {t("notify.browserUnsupported")}
      </p>
    </div>
  );
}

export default function MeetingJoin({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const { meeting, origin } = loaderData;
  return (
    <div className="mx-auto flex max-w-5xl flex-col gap-4">
      <PageTitle titleKey="join" />
      <section className="rounded-lg border border-slate-200 bg-white p-4" data-testid="meeting-details">
        <h2 className="text-lg font-medium">{meeting.title}</h2>
        <p className="text-sm">
          {meeting.when} · {meeting.duration} {t("meetings.minutes")}
        </p>
        <p className="mt-2 text-sm whitespace-pre-wrap">{meeting.agenda}</p>
        {meeting.participants.length > 0 ? (
          <p className="mt-2 text-xs text-slate-500">
            {t("fields.meetingParticipants")}: {meeting.participants.map((p) => p.nick_name).join(", ")}
          </p>
        ) : null}
        {meeting.emails.length > 0 ? (
          <p className="mt-1 text-xs text-slate-500">
            {t("meetings.attendees")}: {meeting.emails.join(", ")}
          </p>
        ) : null}
      </section>
      {meeting.cancelled ? <p className="text-sm">{t("meetings.cancelled")}</p> : null}
      {!meeting.cancelled && !meeting.joinable ? (
        <p className="text-sm">{t("meetings.notYet", { minutes: MEETING_JOIN_EARLY_MINUTES })}</p>
      ) : null}
      {meeting.joinable && meeting.startUrl ? (
        <a href={meeting.startUrl} target="_blank" rel="noopener noreferrer" className={buttonVariants({ size: "sm" })}>
          {t("meetings.startAsHost")}
        </a>
      ) : null}
      {meeting.joinable && origin ? <Room origin={origin} joinUrl={meeting.joinUrl} /> : null}
      {meeting.joinable ? (
        <p className="text-sm" data-testid="meeting-link">
          {t("meetings.joinNoScript")}{" "}
          <a href={meeting.joinUrl} target="_blank" rel="noopener noreferrer" className="text-brand underline">
            {meeting.joinUrl}
          </a>
        </p>
      ) : null}
    </div>
  );
}
