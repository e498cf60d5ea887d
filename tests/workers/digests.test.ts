import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { duePeriods, queueDueDigests, sendDigest, sendDigests } from "~/.server/notifications/digests";
import { notify, setChannels } from "~/.server/notifications/notifications";
import { signedTopic, unsubscribeUrl } from "~/.server/notifications/unsubscribe";
import * as unsubscribe from "~/routes/notifications-unsubscribe";
import { newMember, until } from "./helpers";
import { callRoute, ORIGIN } from "./route";

// Digests and the members' one-click unsubscribe (issue 33, decision 0040), against the real queue and D1.

// A Wednesday, 09:00 in UTC: the daily digest and this week's weekly one (from Monday the 23rd) are due.
const NOW = Date.UTC(2026, 10, 25, 9);

async function member(name: string) {
  const id = await newMember(name);
  const email = (await env.DB.prepare("SELECT email FROM users WHERE id = ?").bind(id).first<string>("email")) ?? "";
  return { id, email };
}

const mailsTo = (email: string) =>
  env.DB.prepare("SELECT subject, body, html, headers FROM mail_outbox WHERE to_email = ? ORDER BY id")
    .bind(email)
    .all<{ subject: string; body: string; html: string | null; headers: string | null }>()
    .then((r) => r.results);

/** Something happened to `to`, `at` (a like on an item of theirs by `actor`). */
const liked = (to: number, actor: number, at: number, item = 1) =>
  notify([{ userId: to, kind: "like", event: "like", key: `like:${item}:${actor}:${at}`, subjectId: item, actorId: actor }], at);

describe("digests", () => {
  it("are due from 08:00 on the member's clocks: the day's, and the week's from Monday", () => {
    expect(duePeriods("UTC", Date.UTC(2026, 10, 25, 7, 59))).toEqual([]);
    expect(duePeriods("UTC", NOW)).toEqual(["daily:2026-11-25", "weekly:2026-11-23"]);
    // 23:30 UTC on the 25th is 08:30 on the 26th in Tokyo.
    expect(duePeriods("Asia/Tokyo", Date.UTC(2026, 10, 25, 23, 30))).toEqual(["daily:2026-11-26", "weekly:2026-11-23"]);
  });

  it("are built once per period under two cron runs at once and a redelivered job, grouped by kind, with both parts", async () => {
    const me = await member("Digest reader");
    const fan = await member("Fan");
    await liked(me.id, fan.id, NOW - 3 * 86_400_000);
    await notify(
      [{ userId: me.id, kind: "follower", event: "follow", key: `follow:${fan.id}`, subjectId: null, actorId: fan.id }],
      NOW - 86_400_000,
    );
    const [first, second] = await Promise.all([queueDueDigests(NOW), queueDueDigests(NOW)]);
    expect(first + second).toBeGreaterThanOrEqual(1);
    // The queue's consumer builds it; a job delivered again and a claim tried again send nothing more.
    const [mail] = await until(async () => ((await mailsTo(me.email)).length ? mailsTo(me.email) : null));
    await sendDigests({ type: "digest", period: "weekly:2026-11-23", members: [me.id], at: NOW });
    expect(await Promise.all([sendDigest(me.id, "weekly:2026-11-23", NOW), sendDigest(me.id, "weekly:2026-11-23", NOW)])).toEqual([
      "done",
      "done",
    ]);
    expect(await mailsTo(me.email)).toHaveLength(1);
    expect(mail?.subject).toBe("Your weekly digest from Research Commons");
    expect(mail?.body).toContain("2 things happened since your last weekly digest");
    expect(mail?.body).toContain("New followers\n- Fan followed you");
    expect(mail?.body).toContain(`${ORIGIN}/personal?member=${fan.id}`);
    expect(mail?.html).toContain(`<a href="${ORIGIN}/personal?member=${fan.id}"`);
    const headers = JSON.parse(mail?.headers ?? "{}") as Record<string, string>;
    expect(headers["List-Unsubscribe-Post"]).toBe("List-Unsubscribe=One-Click");
    expect(headers["List-Unsubscribe"]).toMatch(new RegExp(`^<${ORIGIN}/notifications/unsubscribe\\?m=${me.id}&k=weekly&t=[\\w-]+>$`));
    // The next week's starts where this one ended.
    await liked(me.id, fan.id, NOW + 86_400_000, 2);
    expect(await sendDigest(me.id, "weekly:2026-11-30", NOW + 5 * 86_400_000)).toBe("sent");
    expect((await mailsTo(me.email))[1]?.body).toContain("1 thing happened");
  });

  it("send nothing when nothing arrived, or only kinds mailed otherwise", async () => {
    const me = await member("Nothing new");
    const fan = await member("Fan");
    expect(await sendDigest(me.id, "weekly:2026-11-23", NOW)).toBe("empty");
    await setChannels(me.id, { like: "daily" });
    await liked(me.id, fan.id, NOW - 3600_000);
    expect(await sendDigest(me.id, "weekly:2026-11-16", NOW)).toBe("empty");
    expect(await sendDigest(me.id, "daily:2026-11-25", NOW)).toBe("sent");
    expect((await mailsTo(me.email)).map((m) => m.subject)).toEqual(["Your daily digest from Research Commons"]);
  });
});

describe("mail at once", () => {
  it("goes for a kind its member chose to have mailed, once, with both parts and its unsubscribe", async () => {
    const me = await member("Eager");
    const fan = await member("Fan");
    await setChannels(me.id, { follower: "mail" });
    const follow = { userId: me.id, kind: "follower", event: "follow", key: `follow:${fan.id}`, subjectId: null, actorId: fan.id } as const;
    await notify([follow], NOW);
    await notify([follow], NOW + 1);
    // Likes stay on the weekly digest: no mail for them.
    await liked(me.id, fan.id, NOW);
    const [mail] = await until(async () => ((await mailsTo(me.email)).length ? mailsTo(me.email) : null));
    expect(mail?.subject).toBe("Fan followed you");
    expect(mail?.body).toContain(`${ORIGIN}/personal?member=${fan.id}`);
    expect(mail?.html).toContain("Fan followed you");
    expect(JSON.parse(mail?.headers ?? "{}")["List-Unsubscribe"]).toContain(`k=follower`);
    await until(
      async () => (await env.DB.prepare("SELECT count(*) AS n FROM notifications WHERE user_id = ?").bind(me.id).first<number>("n")) === 2,
    );
    expect(await mailsTo(me.email)).toHaveLength(1);
  });
});

describe("one-click unsubscribe for members", () => {
  it("works without a session, refuses a tampered or foreign link, is idempotent, and can be undone", async () => {
    const me = await member("Stopper");
    const other = await member("Other");
    const link = new URL(await unsubscribeUrl(ORIGIN, me.id, "weekly"));
    const path = link.pathname + link.search;
    expect(await signedTopic(link.searchParams)).toEqual({ member: me.id, topic: "weekly" });
    // Opening it asks (nothing changes on a GET).
    const asked = await callRoute<{ state: string; kinds: string[] }>(unsubscribe, { path, inLayout: false });
    expect(asked.data.state).toBe("ask");
    expect(asked.data.kinds).toContain("like");
    // Another member's id, another topic, or a changed signature: refused, nothing stopped.
    const forged = [
      path.replace(`m=${me.id}`, `m=${other.id}`),
      path.replace("k=weekly", "k=daily"),
      `${path.slice(0, -2)}xx`,
      "/notifications/unsubscribe?m=1&k=weekly",
    ];
    for (const wrong of forged) {
      const answer = await callRoute(unsubscribe, {
        path: wrong,
        method: "POST",
        form: { "List-Unsubscribe": "One-Click" },
        inLayout: false,
      });
      expect(answer.status, wrong).toBe(400);
    }
    // The mail client's one-click post stops it; again changes nothing.
    const stopped = await callRoute<{ state: string; kinds: string[] }>(unsubscribe, {
      path,
      method: "POST",
      form: { "List-Unsubscribe": "One-Click" },
      inLayout: false,
    });
    expect(stopped.data.state).toBe("done");
    expect(stopped.data.kinds).toHaveLength(9);
    const channels = await env.DB.prepare("SELECT kind, channel FROM notification_channels WHERE user_id = ?").bind(me.id).all();
    expect(channels.results.every((row) => row.channel === "app")).toBe(true);
    const again = await callRoute<{ kinds: string[] }>(unsubscribe, {
      path,
      method: "POST",
      form: { "List-Unsubscribe": "One-Click" },
      inLayout: false,
    });
    expect(again.data.kinds).toEqual([]);
    // The page's undo puts them back on the weekly digest.
    const form = new FormData();
    for (const [name, value] of link.searchParams) form.append(name, value);
    form.append("intent", "undo");
    for (const kind of stopped.data.kinds) form.append("kind", kind);
    const undone = await callRoute<{ state: string }>(unsubscribe, { path: "/notifications/unsubscribe", form, inLayout: false });
    expect(undone.data.state).toBe("undone");
    expect((await callRoute<{ state: string }>(unsubscribe, { path, inLayout: false })).data.state).toBe("ask");
  });
});
