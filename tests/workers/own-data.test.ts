import { env } from "cloudflare:workers";
import { describe, expect, it, vi } from "vitest";
import { AccountError } from "~/.server/accounts/account-error";
import { deleteAccount } from "~/.server/accounts/delete-account";
import { exportData } from "~/.server/accounts/export-data";
import { hashPassword } from "~/.server/accounts/passwords";
import { createSession, findSession } from "~/.server/accounts/sessions";
import { config } from "~/.server/config/config";
import { startUpload } from "~/.server/content/chunked";
import { cleanUp } from "~/.server/cron/cleanup";
import { schedule } from "~/.server/meetings/schedule";
import { setAvatar } from "~/.server/members/avatar";
import { memberPage } from "~/.server/members/profile";
import { addTag } from "~/.server/members/tags";
import { listConversations, startConversation } from "~/.server/messaging/conversations";
import { listNotifications } from "~/.server/notifications/notifications";
import { searchMembers } from "~/.server/search/search";
import { addComment, followMember } from "~/.server/social/social";
import { foldReadings } from "~/.server/stats/fold";
import { meetingSchema } from "~/lib/schemas/meeting";
import { pngBytes } from "../fixtures/files";
import { history, newItem, newMember, outboxFor, sendMessage, testCaller, uniqueEmail, until } from "./helpers";

const PASSWORD = "a password only they know";

/** A member with a real password, an upload whose files are in R2, an open resumable upload, and a conversation. */
async function richMember(name: string) {
  const id = await newMember(name);
  await env.DB.prepare("UPDATE users SET password_hash = ? WHERE id = ?")
    .bind(await hashPassword(PASSWORD, config().pepper), id)
    .run();
  const item = await newItem(id, { title: `${name} paper` });
  const keys = await env.DB.prepare("SELECT file_key, thumbnail_key FROM content WHERE id = ?")
    .bind(item)
    .first<{ file_key: string; thumbnail_key: string }>();
  await env.FILES.put(keys?.file_key ?? "", "%PDF-1.4 body");
  await env.FILES.put(keys?.thumbnail_key ?? "", "png");
  const open = await startUpload(id, 10, 1);
  const other = await newMember(`${name}'s friend`);
  const conversation = await startConversation(id, other, 1);
  await sendMessage(conversation.id, id, `from ${name}`, `c-${crypto.randomUUID()}`);
  await sendMessage(conversation.id, other, `to ${name}`, `c-${crypto.randomUUID()}`);
  await addComment(id, item, `${name} comments`, 4);
  await followMember(id, other, true, 5);
  await addTag(id, "free", "Health", 6);
  const avatar = await setAvatar(id, pngBytes());
  const objects = [keys?.file_key ?? "", keys?.thumbnail_key ?? "", avatar.image?.slice(1) ?? "no avatar"];
  return { id, other, item, conversation: conversation.id, objects, open };
}

describe("a member's own data", () => {
  it("exports as one JSON document of what is theirs, and nothing of anyone else's", async () => {
    const me = await richMember("Exporter");
    await followMember(me.other, me.id, true, 6);
    // The other member's message found them away: a queued job tells their notification centre.
    await until(async () => (await listNotifications(me.id)).some((n) => n.kind === "message") || undefined);
    const who = { hostId: me.id, language: "en", now: Date.UTC(2026, 10, 22), later: () => {} };
    const input = {
      title: "Exported sync",
      agenda: "a",
      timeZone: "UTC",
      startsAt: "2026-12-01T10:00",
      duration: "30",
      emails: "x@ex.example",
    };
    await schedule(who, meetingSchema.parse(input));
    // Readings of their item over two months and more than a page of days, as the stats queue folds them.
    const [item] = (await env.DB.prepare("SELECT id FROM content WHERE owner_id = ?").bind(me.id).all<{ id: number }>()).results;
    await foldReadings(
      Array.from({ length: 12 }, (_, i) => ({
        id: crypto.randomUUID(),
        kind: "view" as const,
        content: item?.id ?? 0,
        member: me.other,
        type: 1 as const,
        day: `2026-${i < 6 ? "10" : "11"}-${String(10 + i).padStart(2, "0")}`,
        at: Date.UTC(2026, i < 6 ? 9 : 10, 10 + i),
      })),
    );
    const text = await new Response(exportData(me.id, 10, "https://app.test")).text();
    const data = JSON.parse(text);
    expect(data.account).toMatchObject({ id: me.id, nick_name: "Exporter" });
    expect(data.uploads.map((u: { title: string }) => u.title)).toEqual(["Exporter paper"]);
    expect(data.comments.map((c: { body: string }) => c.body)).toEqual(["Exporter comments"]);
    expect(data.messagesSent.map((m: { body: string }) => m.body)).toEqual(["from Exporter"]);
    expect(data.tags.map((t: { tag: string }) => t.tag)).toEqual(["health"]);
    expect(data.following.map((f: { id: number }) => f.id)).toEqual([me.other]);
    expect(data.verification).toEqual({ status: "not submitted" });
    // Their meetings and notifications are there too.
    expect(data.meetingsHosted).toMatchObject([{ title: "Exported sync", attendees: "x@ex.example", time_zone: "UTC" }]);
    // The follow, and the message from the other member that found them away (decision 0040).
    expect(data.notifications.map((n: { kind: string; actor_id: number }) => [n.kind, n.actor_id]).sort()).toEqual([
      ["follower", me.other],
      ["message", me.other],
    ]);
    // Their statistics: every day, and the item's months.
    expect(data.statisticsDays).toHaveLength(12);
    expect(data.statisticsDays[0]).toMatchObject({ day: "2026-10-10", kind: "view", n: 1 });
    expect(data.statisticsItemMonths.map((m: { month: string; n: number }) => [m.month, m.n])).toEqual([
      ["2026-10", 6],
      ["2026-11", 6],
    ]);
    expect(text).not.toContain("to Exporter");
    expect(text).not.toContain("password");
  });

  it("pages long lists, so every row arrives once", async () => {
    const me = await newMember("Chatty");
    const other = await newMember("Listener");
    const started = await startConversation(me, other, 1);
    const statements = Array.from({ length: 1203 }, (_, i) =>
      env.DB.prepare("INSERT INTO messages (conversation_id, sender_id, client_id, body, created_at) VALUES (?, ?, ?, ?, ?)").bind(
        started.id,
        me,
        `bulk-${i}-0000`,
        `m${i}`,
        i,
      ),
    );
    await env.DB.batch(statements);
    const data = JSON.parse(await new Response(exportData(me, 1, "https://app.test")).text());
    const bodies = data.messagesSent.map((m: { body: string }) => m.body);
    expect(bodies).toHaveLength(1203);
    expect(new Set(bodies).size).toBe(1203);
  });

  it("deletes with the right password only; then no file, session or trace of theirs is left, and others' conversations stay readable", async () => {
    const me = await richMember("Leaver");
    const token = await createSession(me.id, Date.now());
    const theirs = await newItem(me.other, { likes: 1 });
    await env.DB.prepare("INSERT INTO likes (user_id, content_id, created_at) VALUES (?, ?, 1)").bind(me.id, theirs).run();
    // Their statistics, and a reading of theirs on another member's item.
    const [mine] = (await env.DB.prepare("SELECT id FROM content WHERE owner_id = ?").bind(me.id).all<{ id: number }>()).results;
    const seen = (content: number, member: number) => ({
      id: crypto.randomUUID(),
      kind: "view" as const,
      content,
      member,
      type: 1 as const,
      day: "2026-11-25",
      at: 1,
    });
    await foldReadings([seen(mine?.id ?? 0, me.other), seen(theirs, me.id)]);
    const statistics = `SELECT (SELECT count(*) FROM stat_days WHERE owner_id = ?1) + (SELECT count(*) FROM stat_months WHERE owner_id = ?1)
      + (SELECT count(*) FROM stat_owner_days WHERE owner_id = ?1) + (SELECT count(*) FROM stat_hits WHERE member_id = ?1) AS n`;
    expect(await env.STATS_DB.prepare(statistics).bind(me.id).first<number>("n")).toBe(4);
    const { caller } = testCaller();
    await expect(deleteAccount(me.id, "not it", caller)).rejects.toBeInstanceOf(AccountError);
    expect(await env.FILES.head(me.objects[0] ?? "")).not.toBeNull();

    await deleteAccount(me.id, PASSWORD, caller);
    for (const key of me.objects) expect(await env.FILES.head(key), key).toBeNull();
    const openUpload = await env.DB.prepare("SELECT 1 FROM uploads WHERE id = ?").bind(me.open.id).first();
    expect(openUpload).toBeNull();
    expect((await findSession(token, Date.now())).status).toBe("none");
    expect(await memberPage(me.other, me.id)).toBeNull();
    const found = await searchMembers({ q: "Leaver", tab: "members", page: 1 } as Parameters<typeof searchMembers>[0]);
    expect(found.map((hit) => hit.id)).not.toContain(me.id);
    const row = await env.DB.prepare("SELECT email, nick_name, deleted_at FROM users WHERE id = ?").bind(me.id).first();
    expect(row).toMatchObject({ email: `deleted-${me.id}@deleted.invalid`, nick_name: "" });
    expect(await env.DB.prepare("SELECT count(*) AS n FROM member_fts WHERE rowid = ?").bind(me.id).first("n")).toBe(0);
    expect(await env.DB.prepare("SELECT likes FROM content WHERE id = ?").bind(theirs).first("likes")).toBe(0);
    for (const table of ["content", "comments", "follows", "member_tags", "profiles", "score_history"]) {
      const column = table === "follows" ? "follower_id" : table === "content" ? "owner_id" : "user_id";
      expect(await env.DB.prepare(`SELECT count(*) AS n FROM ${table} WHERE ${column} = ?`).bind(me.id).first("n"), table).toBe(0);
    }
    // Their statistics go from the statistics database by the account's follow-up job (decision 0045).
    await until(async () => (await env.STATS_DB.prepare(statistics).bind(me.id).first<number>("n")) === 0);
    // The other member still reads the whole conversation, from a member now nameless, and cannot write into it.
    const page = await history(me.conversation);
    expect(page.messages.map((m) => m.body)).toEqual(["from Leaver", "to Leaver"]);
    expect((await listConversations(me.other))[0]?.other).toMatchObject({ id: me.id, nick_name: "" });
    expect(await sendMessage(me.conversation, me.other, "anyone there?", "c-after-0000")).toBeNull();
    await expect(deleteAccount(me.id, PASSWORD, caller)).rejects.toBeInstanceOf(AccountError);
  });

  it("leaves no file behind when R2 fails right after the rows went: the cron deletes items, uploads and avatars", async () => {
    const me = await richMember("Interrupted");
    const { caller } = testCaller();
    // R2 fails (or the isolate ends) once the account's batch has gone through.
    const deleteOnce = env.FILES.delete.bind(env.FILES);
    const failing = vi.spyOn(env.FILES, "delete").mockImplementation(async (keys) => {
      if ([keys].flat().some((key) => me.objects.includes(key))) throw new Error("R2 is down");
      return deleteOnce(keys);
    });
    try {
      await expect(deleteAccount(me.id, PASSWORD, caller)).rejects.toThrow("R2 is down");
    } finally {
      failing.mockRestore();
    }
    expect(await env.DB.prepare("SELECT deleted_at FROM users WHERE id = ?").bind(me.id).first("deleted_at")).not.toBeNull();
    for (const key of me.objects) expect(await env.FILES.head(key), key).not.toBeNull();

    await cleanUp(Date.now());
    for (const key of me.objects) expect(await env.FILES.head(key), key).toBeNull();
  });

  it("cancels the meetings a leaving member hosts, so their attendees hear of it before the meetings go", async () => {
    const me = await richMember("Host leaver");
    const attendee = uniqueEmail("attendee");
    const { caller, settle } = testCaller();
    const who = { hostId: me.id, language: "en", now: caller.now, later: (work: Promise<unknown>) => caller.waitUntil?.(work) };
    const input = { title: "Handover", agenda: "a", timeZone: "UTC", startsAt: "2026-12-01T10:00", duration: "30", emails: attendee };
    await schedule(who, meetingSchema.parse(input));
    await until(async () => (await outboxFor(attendee)).length > 0); // the queued invitation
    await deleteAccount(me.id, PASSWORD, caller);
    await settle();
    // The cancellation is queued with the meeting as announced, so it goes out although the meeting is gone.
    const mails = await until(async () => {
      const subjects = (await outboxFor(attendee)).map((mail) => mail.subject);
      return subjects.length >= 2 ? subjects : null;
    });
    expect(mails).toEqual(["Invitation: Handover", "Cancelled: Handover"]);
    expect(await env.DB.prepare("SELECT count(*) AS n FROM meetings WHERE host_id = ?").bind(me.id).first("n")).toBe(0);
  });
});
