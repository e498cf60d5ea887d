import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { optOutUrl } from "~/.server/mail/opt-out";
import { duePeriods, queueDueDigests, sendDigest, sendDigests } from "~/.server/notifications/digests";
import { channelsOf, notify, setChannels } from "~/.server/notifications/notifications";
import { signedTopic, unsubscribeUrl } from "~/.server/notifications/unsubscribe";
import { isCrossSiteWrite } from "~/.server/web/security/same-origin";
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
    const stopped = await oneClick(link);
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
    const undone = await undo(link, stopped.data.kinds, stopped.data.undo);
    expect(undone.data.state).toBe("undone");
    expect((await callRoute<{ state: string }>(unsubscribe, { path, inLayout: false })).data.state).toBe("ask");
  });

  it("undoes only what its stop turned off: never a kind the member turned off or has mailed at once, nor one changed since", async () => {
    const me = await member("Careful undoer");
    await setChannels(me.id, { follower: "off", comment: "mail" });
    const link = new URL(await unsubscribeUrl(ORIGIN, me.id, "weekly"));
    const stopped = await oneClick(link);
    expect(stopped.data.kinds).toContain("like");
    expect(stopped.data.kinds).not.toContain("follower");
    expect(stopped.data.kinds).not.toContain("comment");
    // Since the stop, the member turned likes off in Settings.
    await setChannels(me.id, { like: "off" });
    const untouched = { follower: "off", comment: "mail", like: "off", mention: "app" };
    // An undo that names more kinds than its stop turned off, or carries no signature, or another's: refused, nothing changes.
    for (const [kinds, signature] of [
      [[...stopped.data.kinds, "follower", "comment"], stopped.data.undo],
      [stopped.data.kinds, ""],
      [["follower"], stopped.data.undo],
    ] as const) {
      expect((await undo(link, kinds, signature)).status).toBe(400);
      expect(await channelsOf(me.id)).toMatchObject(untouched);
    }
    // The stop's own undo puts back its kinds, but likes stay as the member set them since.
    expect((await undo(link, stopped.data.kinds, stopped.data.undo)).data.state).toBe("undone");
    const after = await channelsOf(me.id);
    expect(after).toMatchObject({ follower: "off", comment: "mail", like: "off", mention: "weekly" });
    for (const kind of stopped.data.kinds.filter((kind) => kind !== "like")) expect(after[kind as keyof typeof after], kind).toBe("weekly");
  });

  it("takes a mail provider's one-click post from the provider's own origin; other posts from another site stay refused", async () => {
    const me = await member("Webmail reader");
    const link = await unsubscribeUrl(ORIGIN, me.id, "weekly");
    const guest = await optOutUrl(ORIGIN, "guest@example.org");
    const post = (url: string, headers: Record<string, string>) =>
      new Request(url, {
        method: "POST",
        headers: { "Content-Type": "application/x-www-form-urlencoded", ...headers },
        body: "List-Unsubscribe=One-Click",
      });
    // A provider's server sends its Origin; one working in a browser sends Sec-Fetch-Site too.
    const providers: Record<string, string>[] = [
      { Origin: "https://webmail.example" },
      { Origin: "https://webmail.example", "Sec-Fetch-Site": "cross-site" },
    ];
    for (const headers of providers) {
      // The worker's origin rule (workers/app.ts) lets the signed one-click links through...
      expect(isCrossSiteWrite(post(link, headers))).toBe(false);
      expect(isCrossSiteWrite(post(guest, headers))).toBe(false);
      // ...and nothing else: the same pages without their signature, and every other page.
      for (const other of [
        "/notifications/unsubscribe",
        `/notifications/unsubscribe?m=${me.id}&k=weekly`,
        "/unsubscribe?address=guest%40example.org",
        "/notifications/unsubscribe/extra?t=x",
        "/personal/Setting?t=x&token=x",
        "/login",
      ])
        expect(isCrossSiteWrite(post(`${ORIGIN}${other}`, headers)), other).toBe(true);
    }
    const url = new URL(link);
    const stopped = await callRoute<{ state: string; kinds: string[] }>(unsubscribe, {
      path: url.pathname + url.search,
      form: { "List-Unsubscribe": "One-Click" },
      headers: { Origin: "https://webmail.example", "Sec-Fetch-Site": "cross-site" },
      inLayout: false,
    });
    expect([stopped.data.state, stopped.data.kinds.length]).toEqual(["done", 9]);
  });
});

interface Stopped {
  state: string;
  kinds: string[];
  undo: string;
}

/** A mail client's one-click post to the link. */
const oneClick = (link: URL) =>
  callRoute<Stopped>(unsubscribe, {
    path: link.pathname + link.search,
    form: { "List-Unsubscribe": "One-Click" },
    inLayout: false,
  });

/** The page's undo button, as the stop's answer rendered it (the link, the kinds and the undo's signature). */
function undo(link: URL, kinds: readonly string[], signature: string) {
  const form = new FormData();
  for (const [name, value] of link.searchParams) form.append(name, value);
  form.append("intent", "undo");
  for (const kind of kinds) form.append("kind", kind);
  form.append("u", signature);
  return callRoute<{ state: string }>(unsubscribe, { path: "/notifications/unsubscribe", form, inLayout: false });
}
