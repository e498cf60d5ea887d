import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { translator } from "~/.server/i18n/translate";
import { sendDigest, sendNotificationMail } from "~/.server/notifications/digests";
import { type NotificationRow, setChannels } from "~/.server/notifications/notifications";
import { addComment, socialOf } from "~/.server/social/social";
import { notificationText } from "~/lib/notifications";
import * as centre from "~/routes/notifications";
import { newItem, newMember } from "./helpers";
import { callRoute, sessionFor } from "./route";

// A notification names its item only while its member may see it (decision 0040): an item turned
// private (or hidden, or deleted) is not named to anyone but its owner, in the centre, digests or mail.

// A Wednesday, 09:00 in UTC: this week's weekly digest (from Monday the 23rd) is due.
const NOW = Date.UTC(2026, 10, 25, 9);
const SECRET = "Merger of Acme and Globex";

const emailOf = async (id: number) => (await env.DB.prepare("SELECT email FROM users WHERE id = ?").bind(id).first<string>("email")) ?? "";
const mailsTo = (email: string) =>
  env.DB.prepare("SELECT subject, body, html FROM mail_outbox WHERE to_email = ? ORDER BY id")
    .bind(email)
    .all<{ subject: string; body: string; html: string | null }>()
    .then((r) => r.results);
const centreOf = async (member: number) =>
  (await callRoute<{ notifications: NotificationRow[] }>(centre, { path: "/personal/notifications", token: await sessionFor(member) })).data
    ?.notifications ?? [];

/** A reader's comment on an owner's public item, and the owner's reply to it: each hears of the other. */
async function thread() {
  const [owner, reader] = [await newMember("Owner"), await newMember("Reader")];
  const item = await newItem(owner, { title: "Quarterly notes" });
  await addComment(reader, item, "Interesting", NOW - 2 * 86_400_000, `k-${crypto.randomUUID()}`);
  const [root] = (await socialOf(owner, item, owner)).comments;
  await addComment(owner, item, "Thanks", NOW - 86_400_000, `k-${crypto.randomUUID()}`, root?.id);
  // Renamed and made private after: the reader may no longer see it.
  await env.DB.prepare("UPDATE content SET title = ?, publicize = 0 WHERE id = ?").bind(SECRET, item).run();
  return { owner, reader, item };
}

describe("a notification about an item its member can no longer see", () => {
  it("does not name it in the centre, in any language, and still names it to its owner", async () => {
    const { owner, reader, item } = await thread();
    const [reply] = await centreOf(reader);
    expect(reply).toMatchObject({ kind: "reply", subject_id: item, subject_title: null });
    expect(["en", "ja", "zh"].map((language) => notificationText(translator(language), reply as NotificationRow))).toEqual([
      "Owner replied to your comment on “something no longer available”",
      "Ownerさんが「表示できないもの」のあなたのコメントに返信しました",
      "Owner回复了你在“无法显示的内容”上的评论",
    ]);
    expect((await centreOf(owner))[0]).toMatchObject({ kind: "comment", subject_title: SECRET });
    // Deleted: nobody sees a title.
    await env.DB.prepare("DELETE FROM content WHERE id = ?").bind(item).run();
    expect((await centreOf(owner))[0]?.subject_title).toBeNull();
  });

  it("does not name it in a digest, nor in a mail sent at once", async () => {
    const { reader } = await thread();
    const email = await emailOf(reader);
    expect(await sendDigest(reader, "weekly:2026-11-23", NOW)).toBe("sent");
    await setChannels(reader, { reply: "mail" });
    const id = await env.DB.prepare("SELECT id FROM notifications WHERE user_id = ?").bind(reader).first<number>("id");
    await sendNotificationMail(id ?? 0);
    const [digest, mail] = await mailsTo(email);
    expect(digest?.body).toContain("Owner replied to your comment on “something no longer available”");
    expect(mail?.subject).toBe("Owner replied to your comment on “something no longer available”");
    for (const sent of [digest, mail]) expect(`${sent?.subject} ${sent?.body} ${sent?.html}`).not.toContain("Merger");
  });
});
