import { parseWithZod } from "@conform-to/zod/v4";
import { useTranslation } from "react-i18next";
import { data, Form, Link } from "react-router";
import { invitableMembers, isJoinable, listMeetings, type MeetingSummary, meetingFor, memberZone } from "~/.server/meetings/meetings";
import { cancel, reschedule, type Scheduler, schedule } from "~/.server/meetings/schedule";
import { attempt, Refused } from "~/.server/refused";
import { allowMemberCall } from "~/.server/security/rate-limit";
import { requireUser } from "~/.server/web/auth/session";
import { afterAnswer } from "~/.server/web/context";
import { getLocale } from "~/.server/web/i18n/middleware";
import { flashRedirect } from "~/.server/web/shell/flash";
import { refusalReply } from "~/.server/web/shell/refusals";
import { type MeetingDefaults, MeetingForm } from "~/components/meeting-form";
import { PageTitle } from "~/components/page-title";
import { Button, buttonVariants } from "~/components/ui/button";
import type { PageHandle } from "~/lib/page-handle";
import { meetingSchema } from "~/lib/schemas/meeting";
import { formatInZone, relativeToNow, utcToZoned } from "~/lib/time-zone";
import type { Route } from "./+types/meetings";

// /liveStreaming (menu "Meeting"): the member's meetings as host or invited member; with ?schedule
// the form that schedules one, with ?edit=id the form that edits one of theirs. The form has its own
// address because its 400 time zones weigh more than the rest of the page: the list a member opens
// to join a meeting stays within the first round trip (docs/decisions/0011).

/** Times as the reader reads them: in their zone and language; the meeting's zone beside when it differs. */
function shown(meeting: MeetingSummary, zone: string, language: string, now: number) {
  const format = (timeZone: string) => formatInZone(meeting.starts_at, timeZone, language);
  return {
    ...meeting,
    local: format(zone),
    relative: relativeToNow(meeting.starts_at, now, language),
    theirs: meeting.time_zone === zone ? null : format(meeting.time_zone),
    joinable: isJoinable(meeting, now),
    editable: meeting.cancelled_at === null && meeting.starts_at > now,
  };
}

// The schedule form finds zones and members as typed and starts from the browser's zone (docs/decisions/0046).
export const handle: PageHandle = { modules: ["meetings"] };

export async function loader({ request, context }: Route.LoaderArgs) {
  const user = requireUser(request, context);
  const language = getLocale(context);
  const now = Date.now();
  const asked = new URL(request.url).searchParams;
  const editId = Number(asked.get("edit"));
  const [zone, editing] = await Promise.all([memberZone(user.id), editId > 0 ? meetingFor(user.id, editId) : null]);
  const editable = editing && editing.host_id === user.id && !editing.cancelled_at && editing.starts_at > now ? editing : null;
  if (!editable && !asked.has("schedule")) {
    const lists = await listMeetings(user.id, now);
    return {
      me: user.id,
      upcoming: lists.upcoming.map((m) => shown(m, zone, language, now)),
      past: lists.past.map((m) => shown(m, zone, language, now)),
      form: null,
    };
  }
  const invitable = await invitableMembers(user.id);
  const defaults: MeetingDefaults = editable
    ? {
        title: editable.title,
        agenda: editable.agenda,
        timeZone: editable.time_zone,
        startsAt: utcToZoned(editable.starts_at, editable.time_zone),
        duration: String(editable.duration_minutes),
        emails: editable.emails.join(", "),
        participants: editable.participants.map((p) => String(p.id)),
        sequence: String(editable.sequence),
      }
    : { timeZone: zone, duration: "60", clientKey: crypto.randomUUID() };
  return {
    me: user.id,
    upcoming: [],
    past: [],
    form: {
      invitable: [...invitable, ...(editable?.participants.filter((p) => !invitable.some((i) => i.id === p.id)) ?? [])],
      editing: editable ? { id: editable.id, title: editable.title } : null,
      defaults,
    },
  };
}

const done = (request: Request, key: string) => flashRedirect(request, "/liveStreaming", "success", key);

export async function action({ request, context }: Route.ActionArgs) {
  const user = requireUser(request, context);
  // Each change may mail outside addresses: the page shares the API's per-member budget.
  if (!(await allowMemberCall(user.id))) {
    const { reply, status } = refusalReply(undefined, new Refused("validation.rateLimited", { status: 429 }));
    return data({ result: reply }, { status });
  }
  const form = await request.formData();
  const intent = form.get("intent");
  const id = Number(form.get("id"));
  const who: Scheduler = {
    hostId: user.id,
    language: getLocale(context),
    origin: new URL(request.url).origin,
    now: Date.now(),
    later: afterAnswer(context),
  };
  if (intent === "cancel") {
    const cancelled = await attempt(() => cancel(who, id));
    // Nothing to show beside a field: the provider's failure goes above the form.
    if (cancelled instanceof Refused) {
      const { reply, status } = refusalReply(undefined, cancelled);
      return data({ result: reply }, { status });
    }
    if (cancelled === false) throw data(null, { status: 404 });
    return done(request, "notify.meetingCancelled");
  }
  const submission = parseWithZod(form, { schema: meetingSchema });
  if (submission.status !== "success") return data({ result: submission.reply() }, { status: 400 });
  const result = await attempt<object>(() =>
    intent === "update" ? reschedule(who, id, submission.value) : schedule(who, submission.value),
  );
  if (result instanceof Refused) {
    const { reply, status } = refusalReply(submission, result);
    return data({ result: reply }, { status });
  }
  if ("notFound" in result) throw data(null, { status: 404 });
  return done(request, intent === "update" ? "notify.meetingUpdated" : "notify.meetingScheduled");
}

type Shown = ReturnType<typeof shown>;

function MeetingRow({ meeting, me }: { meeting: Shown; me: number }) {
  const { t } = useTranslation();
  const hosting = meeting.host_id === me;
  return (
    <li
      className="flex flex-wrap items-start gap-3 rounded-lg border border-slate-200 bg-white p-3"
      data-testid="meeting"
      data-id={meeting.id}
    >
      <div className="min-w-48 flex-1">
        <p className="font-medium" data-testid="meeting-title">
          {meeting.title}
          {meeting.cancelled_at ? (
            <span className="ml-2 rounded bg-slate-100 px-1.5 text-xs text-slate-600">{t("meetings.cancelled")}</span>
          ) : null}
        </p>
        <p className="text-sm" data-testid="meeting-time">
          {meeting.local}
          {meeting.relative ? ` (${meeting.relative})` : ""} · {meeting.duration_minutes} {t("meetings.minutes")}
        </p>
        {meeting.theirs ? (
          <p className="text-xs text-slate-500" data-testid="meeting-zone">
            {t("meetings.meetingZone", { time: meeting.theirs })}
          </p>
        ) : null}
        <p className="text-xs text-slate-500">
          {t("meetings.host")}: {hosting ? t("meetings.you") : meeting.host_name}
        </p>
      </div>
      <div className="flex flex-wrap items-center gap-2">
        {meeting.joinable ? (
          // A full load: the join page's own policy (the provider's frame, camera, microphone) must apply.
          <Link reloadDocument to={`/liveStreaming/join?id=${meeting.id}`} className={buttonVariants({ size: "sm" })}>
            {t("meetings.join")}
          </Link>
        ) : null}
        {!meeting.joinable && !meeting.cancelled_at ? (
          <Link reloadDocument to={`/liveStreaming/join?id=${meeting.id}`} className={buttonVariants({ size: "sm", variant: "outline" })}>
            {t("meetings.open")}
          </Link>
        ) : null}
        {hosting && meeting.editable ? (
          <>
            <Link to={`/liveStreaming?edit=${meeting.id}`} className={buttonVariants({ size: "sm", variant: "outline" })}>
              {t("meetings.edit")}
            </Link>
            <Form method="post">
              <input type="hidden" name="intent" value="cancel" />
              <input type="hidden" name="id" value={meeting.id} />
              <Button type="submit" size="sm" variant="outline">
                {t("meetings.cancel")}
              </Button>
            </Form>
          </>
        ) : null}
      </div>
    </li>
  );
}

export default function Meetings({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const { me, upcoming, past, form } = loaderData;
  if (form)
    return (
      <div className="mx-auto flex max-w-4xl flex-col gap-6">
        <PageTitle titleKey="liveStreaming" />
        <section className="rounded-lg border border-slate-200 bg-white p-4">
          <div className="mb-3 flex items-center justify-between gap-2">
            <h2 className="font-medium">{form.editing ? t("meetings.editing", { title: form.editing.title }) : t("meetings.schedule")}</h2>
            <Link to="/liveStreaming" className="text-sm text-brand">
              {t("meetings.stopEditing")}
            </Link>
          </div>
          <MeetingForm
            key={form.editing?.id ?? "new"}
            editing={form.editing?.id ?? null}
            defaults={form.defaults}
            invitable={form.invitable}
            lastResult={actionData?.result}
          />
        </section>
      </div>
    );
  const list = (meetings: Shown[], testId: string) =>
    meetings.length === 0 ? (
      <p className="text-sm text-slate-500">{t("meetings.none")}</p>
    ) : (
      <ul className="flex flex-col gap-2" data-testid={testId}>
        {meetings.map((meeting) => (
          <MeetingRow key={meeting.id} meeting={meeting} me={me} />
        ))}
      </ul>
    );
  return (
    <div className="mx-auto flex max-w-4xl flex-col gap-6">
      <PageTitle titleKey="liveStreaming" />
      <p>
        <Link to="/liveStreaming?schedule" className={buttonVariants()} data-testid="schedule-meeting">
          {t("meetings.schedule")}
        </Link>
      </p>
      <section>
        <h2 className="mb-2 font-medium">{t("meetings.upcoming")}</h2>
        {list(upcoming, "upcoming-meetings")}
      </section>
      <section>
        <h2 className="mb-2 font-medium">{t("meetings.past")}</h2>
        {list(past, "past-meetings")}
      </section>
    </div>
  );
}
