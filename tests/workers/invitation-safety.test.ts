import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { translator } from "~/.server/i18n/translate";
import { listMeetings } from "~/.server/meetings/meetings";
import { reschedule, type Scheduler, schedule } from "~/.server/meetings/schedule";
import { translateError } from "~/lib/form-errors";
import { LANGUAGES } from "~/lib/i18n";
import { MEETING_NEW_ACCOUNT_DAYS, MEETING_OUTSIDE_INVITES_NEW_ACCOUNT, MEETING_OUTSIDE_INVITES_PER_DAY } from "~/lib/limits";
import { type MeetingInput, meetingSchema } from "~/lib/schemas/meeting";
import * as meetingsPage from "~/routes/meetings";
import * as unsubscribe from "~/routes/unsubscribe";
import { newMember, refusalOf, until } from "./helpers";
import { logged } from "./log-sink";
import { callRoute, sessionFor } from "./route";

// Meeting invitations reach people who never signed up, with a subject and agenda the host wrote
// (issue 30: 516 mails to 500 outside addresses in 2 s). A host's outside addresses are bounded per
// day, atomically (a few for a new account, decision 0032); every such mail says who entered the address and carries a stop link (and the
// RFC 8058 one-click header) that holds for that address; the page form shares the API's limit.

const NOW = Date.UTC(2026, 10, 23, 9, 0);
const DAY = 24 * 60 * 60 * 1000;
const ORIGIN = "https://commons.test";
const CAP = MEETING_OUTSIDE_INVITES_PER_DAY;

const addresses = (count: number, tag = crypto.randomUUID().slice(0, 6)) =>
  Array.from({ length: count }, (_, i) => `guest${i}-${tag}@outside.example`);

const input = (emails: string[], over: Record<string, unknown> = {}): MeetingInput =>
  meetingSchema.parse({
    title: "Groundwater review",
    agenda: "Data, then next steps",
    timeZone: "UTC",
    startsAt: "2026-12-01T10:00",
    duration: "30",
    emails: emails.join(", "),
    ...over,
  });

/** A member who signed up `days` ago (newMember's are from 1970: old accounts). */
async function memberFor(days: number) {
  const id = await newMember("New host");
  await env.DB.prepare("UPDATE users SET created_at = ? WHERE id = ?")
    .bind(NOW - days * DAY, id)
    .run();
  return id;
}

const NEW_CAP = MEETING_OUTSIDE_INVITES_NEW_ACCOUNT;
const NEW_REFUSAL = `validation.meetingInvitesNewAccount|max=${NEW_CAP}|days=${MEETING_NEW_ACCOUNT_DAYS}`;

const as = (hostId: number, now = NOW): Scheduler => ({ hostId, language: "en", origin: ORIGIN, now, later: () => {} });

const mailTo = (email: string) =>
  env.DB.prepare("SELECT subject, body, headers FROM mail_outbox WHERE to_email = ? ORDER BY id")
    .bind(email)
    .all<{ subject: string; body: string; headers: string | null }>()
    .then((r) => r.results);

describe("meeting invitations to outside addresses", () => {
  it("are bounded per host and day, counting only addresses new to a meeting", async () => {
    const hostId = await newMember("Host");
    const first = await schedule(as(hostId), input(addresses(50)));
    expect(first).toHaveProperty("id");
    const edited = await reschedule(as(hostId), first.id as number, input([...addresses(40), ...addresses(10)]));
    expect(edited).toHaveProperty("emails");
    // 50 + 50 new: the budget is spent; one more address is refused beside the field, and nothing is made.
    const over = await refusalOf(schedule(as(hostId), input(addresses(1))));
    expect(over).toEqual({ field: "emails", key: `validation.meetingInvitesPerDay|max=${CAP}`, status: 400 });
    expect((await listMeetings(hostId, NOW)).upcoming).toHaveLength(1);
    expect(
      logged("meeting.outside_invitations")
        .filter((line) => line.host === hostId)
        .map((line) => line.today),
    ).toEqual([50, 100]);
    // A day after the first, the host may invite again.
    expect(await schedule(as(hostId, NOW + DAY + 1), input(addresses(1)))).toHaveProperty("id");
  });

  it("cannot both pass a budget only one fits in, when two forms arrive at once", async () => {
    const hostId = await newMember("Host");
    await schedule(as(hostId), input(addresses(50)));
    await schedule(as(hostId), input(addresses(20)));
    const both = await Promise.all([
      refusalOf(schedule(as(hostId), input(addresses(20)))),
      refusalOf(schedule(as(hostId), input(addresses(20)))),
    ]);
    expect(both.filter((result) => result === "not refused")).toHaveLength(1);
    expect((await listMeetings(hostId, NOW)).upcoming).toHaveLength(3);
  });

  it("are a few a day for a new account, refused past them in the member's words", async () => {
    const hostId = await memberFor(2);
    // Its first meeting cannot take more either, and nothing is made.
    expect(await refusalOf(schedule(as(hostId), input(addresses(NEW_CAP + 1))))).toEqual({
      field: "emails",
      key: NEW_REFUSAL,
      status: 400,
    });
    expect((await listMeetings(hostId, NOW)).upcoming).toHaveLength(0);
    expect(await schedule(as(hostId), input(addresses(NEW_CAP)))).toHaveProperty("id");
    const over = await refusalOf(schedule(as(hostId), input(addresses(1))));
    expect(over).toEqual({ field: "emails", key: NEW_REFUSAL, status: 400 });
    const texts = LANGUAGES.map((language) => translateError(translator(language), NEW_REFUSAL));
    for (const text of texts) expect(text).toMatch(new RegExp(`\\D${MEETING_NEW_ACCOUNT_DAYS}\\D.*\\D${NEW_CAP}\\D`));
    expect(new Set(texts).size).toBe(LANGUAGES.length);
    expect(texts[0]).toBe(
      `While your account is new (its first ${MEETING_NEW_ACCOUNT_DAYS} days, or until your identity is verified), you can invite at most ${NEW_CAP} addresses from outside the platform a day. Try again tomorrow, or invite members instead`,
    );
    // The next day brings the next few.
    expect(await schedule(as(hostId, NOW + DAY + 1), input(addresses(NEW_CAP)))).toHaveProperty("id");
  });

  it("are the full budget for an account past its first days, or one whose identity is verified", async () => {
    const older = await memberFor(MEETING_NEW_ACCOUNT_DAYS);
    const verified = await memberFor(1);
    await env.DB.prepare(
      "INSERT INTO verifications (user_id, kind, fields, photos, status, submitted_at, decided_at) VALUES (?, 'personal', '{}', '{}', 'approved', ?, ?)",
    )
      .bind(verified, NOW, NOW)
      .run();
    for (const hostId of [older, verified]) {
      await schedule(as(hostId), input(addresses(50)));
      expect(await schedule(as(hostId), input(addresses(50)))).toHaveProperty("id");
      expect(await refusalOf(schedule(as(hostId), input(addresses(1))))).toMatchObject({
        key: `validation.meetingInvitesPerDay|max=${CAP}`,
      });
    }
  });

  it("cannot both pass a new account's last address, when two forms arrive at once", async () => {
    const hostId = await memberFor(0);
    await schedule(as(hostId), input(addresses(NEW_CAP - 1)));
    const both = await Promise.all([
      refusalOf(schedule(as(hostId), input(addresses(1)))),
      refusalOf(schedule(as(hostId), input(addresses(1)))),
    ]);
    expect(both.filter((result) => result === "not refused")).toHaveLength(1);
    expect(both).toContainEqual({ field: "emails", key: NEW_REFUSAL, status: 400 });
  });

  it("say who entered the address and carry a stop link that holds for it alone", async () => {
    const hostId = await newMember("Hana Host");
    const [stopped = "", kept = ""] = addresses(2);
    const made = await schedule(as(hostId), input([stopped, kept]));
    const [mail] = await until(async () => {
      const mails = await mailTo(stopped);
      return mails.length ? mails : null;
    });
    expect(mail?.body).toContain("Hana Host, a member of Research Commons, entered this address");
    const headers = JSON.parse(mail?.headers ?? "{}") as Record<string, string>;
    expect(headers["List-Unsubscribe-Post"]).toBe("List-Unsubscribe=One-Click");
    const link = /^<(.+)>$/.exec(headers["List-Unsubscribe"] ?? "")?.[1] ?? "";
    expect(mail?.body).toContain(link);
    const url = new URL(link);
    expect(url.origin + url.pathname).toBe(`${ORIGIN}/unsubscribe`);
    const path = url.pathname + url.search;

    // Opening the link asks; a link for another address, or a changed token, is refused and stops nothing.
    expect((await callRoute(unsubscribe, { path, inLayout: false })).data).toMatchObject({ state: "ask", address: stopped });
    const forged = `/unsubscribe?address=${encodeURIComponent(kept)}&token=${url.searchParams.get("token")}`;
    for (const wrong of [forged, `${path}x`, "/unsubscribe"]) {
      const answer = await callRoute(unsubscribe, {
        path: wrong,
        method: "POST",
        form: { "List-Unsubscribe": "One-Click" },
        inLayout: false,
      });
      expect(answer.status, wrong).toBe(400);
    }
    // The mail client's one-click post (RFC 8058) stops it.
    const oneClick = await callRoute(unsubscribe, { path, method: "POST", form: { "List-Unsubscribe": "One-Click" }, inLayout: false });
    expect(oneClick.data).toMatchObject({ state: "done" });
    expect((await callRoute(unsubscribe, { path, inLayout: false })).data).toMatchObject({ state: "done" });

    // The change is mailed to the address that kept its mail, and not to the one that stopped it.
    await reschedule(as(hostId), made.id as number, input([stopped, kept], { title: "Groundwater review, moved" }));
    await until(async () => (await mailTo(kept)).some((m) => m.subject.startsWith("Updated")));
    expect((await mailTo(stopped)).map((m) => m.subject)).toEqual(["Invitation: Groundwater review"]);
  });

  it("refuse a title with a line break, which would end the mail's subject line", async () => {
    for (const title of ["T1\r\nATTENDEE:evil@x.example", "T1\nBcc: x@y.example", "T1\u2028x"])
      expect(meetingSchema.safeParse({ ...input(addresses(1)), emails: "a@b.example", title }).error?.issues[0]?.message).toBe(
        "validation.oneLine|field=fields.meetingTitle",
      );
  });

  it("cannot be posted from the page faster than the API allows: the page counts against the member's API limit", async () => {
    const hostId = await newMember("Hasty");
    const token = await sessionFor(hostId);
    const post = () => callRoute(meetingsPage, { path: "/liveStreaming", token, form: { intent: "schedule", title: "" } });
    expect((await post()).status).toBe(400);
    // The member's API calls use up the limit (straight at the limiter: a loop of posts would race its window)...
    for (let calls = 0; calls < 10_000; calls++) if (!(await env.API_LIMITER.limit({ key: `member:${hostId}` })).success) break;
    // ...and the page's next post is refused with them, before anything is read.
    expect((await post()).status).toBe(429);
  });
});
