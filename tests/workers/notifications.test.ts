import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { decideVerification } from "~/.server/members/verification";
import { startConversation } from "~/.server/messaging/conversations";
import { conversationRoom } from "~/.server/messaging/live";
import {
  channelsOf,
  listNotifications,
  mailsAtOnce,
  markRead,
  notificationTarget,
  notify,
  setChannels,
} from "~/.server/notifications/notifications";
import { unreadNotifications } from "~/.server/notifications/unread";
import { addComment, setFollow, setLike } from "~/.server/social/social";
import { newItem, newMember, sendMessage, until } from "./helpers";

const kinds = async (userId: number) => (await listNotifications(userId)).map((n) => `${n.kind}:${n.event}:${n.actor_id}`);

describe("notifications", () => {
  it("name a meeting only while the member may still see it", async () => {
    const host = await newMember("Host");
    const guest = await newMember("Guest");
    const { meta } = await env.DB.prepare(
      `INSERT INTO meetings (uid, host_id, title, agenda, starts_at, duration_minutes, time_zone, provider, provider_id, join_url, created_at, updated_at)
       VALUES (?, ?, 'Secret plans', 'a', 1, 30, 'UTC', 'jitsi', 'r', 'https://meet.example/r', 1, 1)`,
    )
      .bind(crypto.randomUUID(), host)
      .run();
    const meeting = meta.last_row_id;
    await env.DB.prepare("INSERT INTO meeting_participants (meeting_id, user_id) VALUES (?, ?)").bind(meeting, guest).run();
    await notify([{ userId: guest, kind: "meeting", event: "invite", key: `meeting:${meeting}:0`, subjectId: meeting, actorId: host }], 1);
    expect((await listNotifications(guest))[0]?.subject_title).toBe("Secret plans");
    await env.DB.prepare("DELETE FROM meeting_participants WHERE meeting_id = ?").bind(meeting).run();
    expect((await listNotifications(guest))[0]?.subject_title).toBeNull();
  });

  it("tell an owner once per like and per follow, however many arrive at once, and never of their own acts", async () => {
    const owner = await newMember("Owner");
    const fan = await newMember("Fan");
    const item = await newItem(owner, { title: "Deep wells" });
    await Promise.all([
      ...Array.from({ length: 6 }, () => setLike(fan, item, true, 1)),
      ...Array.from({ length: 6 }, () => setFollow(fan, owner, true, 1)),
    ]);
    // Unliking and liking again is the same event: no second notification.
    await setLike(fan, item, false, 2);
    await setLike(fan, item, true, 3);
    await setLike(owner, item, true, 4);
    expect((await kinds(owner)).sort()).toEqual([`follower:follow:${fan}`, `like:like:${fan}`]);
    expect(await unreadNotifications(owner)).toBe(2);
  });

  it("tell of each comment, and name what it is about", async () => {
    const owner = await newMember("Writer");
    const reader = await newMember("Reader");
    const item = await newItem(owner, { title: "Karst aquifers" });
    await addComment(reader, item, "First", 1, "comment-key-1");
    await addComment(reader, item, "First", 1, "comment-key-1"); // the same post repeated
    await addComment(reader, item, "Second", 2, "comment-key-2");
    const rows = await listNotifications(owner);
    expect(rows.map((n) => [n.kind, n.subject_title, n.actor_name])).toEqual([
      ["comment", "Karst aquifers", "Reader"],
      ["comment", "Karst aquifers", "Reader"],
    ]);
    expect(notificationTarget(rows[0] ?? { kind: "comment", subject_id: 0, actor_id: 0 })).toBe(`/retrieval/detail?id=${item}`);
  });

  it("route each kind to its channel: the calm defaults, the member's choice, and off records nothing", async () => {
    const member = await newMember("Chooser");
    const other = await newMember("Actor");
    expect(await channelsOf(member)).toEqual({
      message: "weekly",
      comment: "weekly",
      reply: "weekly",
      mention: "weekly",
      follower: "weekly",
      like: "weekly",
      followed_upload: "weekly",
      goal_item: "weekly",
      saved_search: "weekly",
      meeting: "mail",
      verification: "mail",
      moderation: "mail",
    });
    expect([await mailsAtOnce(member, "meeting"), await mailsAtOnce(member, "like")]).toEqual([true, false]);
    await setChannels(member, { meeting: "daily", like: "mail", follower: "off" });
    await setChannels(member, { meeting: "daily" });
    expect([await mailsAtOnce(member, "meeting"), await mailsAtOnce(member, "like")]).toEqual([false, true]);
    await notify(
      [
        { userId: member, kind: "follower", event: "follow", key: `follow:${other}`, subjectId: null, actorId: other },
        { userId: member, kind: "meeting", event: "invite", key: "meeting:1:0", subjectId: 1, actorId: other },
      ],
      1,
    );
    expect(await kinds(member)).toEqual([`meeting:invite:${other}`]);
  });

  it("tell a member with no page open of a message, once until they read the conversation, unless turned off", async () => {
    const [sender, reader, quiet] = [await newMember("Writer"), await newMember("Reader"), await newMember("Quiet")];
    const started = await startConversation(sender, reader, Date.now());
    const messages = async () => (await listNotifications(reader)).filter((n) => n.kind === "message");
    await sendMessage(started.id, sender, "first");
    await until(async () => (await messages()).length === 1 || undefined);
    await sendMessage(started.id, sender, "second, still unread");
    await conversationRoom(started.id).read(started.id, reader);
    await sendMessage(started.id, sender, "third, after reading");
    await until(async () => (await messages()).length === 2 || undefined);
    expect((await messages()).map((n) => [n.actor_id, notificationTarget(n)])).toEqual([
      [sender, `/message?conversation=${started.id}`],
      [sender, `/message?conversation=${started.id}`],
    ]);
    // Turned off: nothing recorded (a later message to the reader shows the queue went by).
    await setChannels(quiet, { message: "off" });
    const other = await startConversation(sender, quiet, Date.now());
    await sendMessage(other.id, sender, "unheard");
    await conversationRoom(started.id).read(started.id, reader);
    await sendMessage(started.id, sender, "fourth");
    await until(async () => (await messages()).length === 3 || undefined);
    expect(await listNotifications(quiet)).toEqual([]);
  });

  it("skip the kinds a member turned off, and mark read one, then all", async () => {
    const member = await newMember("Quiet");
    const other = await newMember("Loud");
    const item = await newItem(member, {});
    await setChannels(member, { like: "off", follower: "app" });
    await setLike(other, item, true, 1);
    await setFollow(other, member, true, 2);
    await addComment(other, item, "hello", 3, "comment-key-3");
    expect((await kinds(member)).sort()).toEqual([`comment:comment:${other}`, `follower:follow:${other}`]);
    const [newest] = await listNotifications(member);
    expect(await markRead(member, [newest?.id ?? 0], 4)).toBe(1);
    expect(await markRead(member, [newest?.id ?? 0], 5)).toBe(0);
    expect(await unreadNotifications(member)).toBe(1);
    // Someone else's notification is not theirs to mark.
    expect(await markRead(other, [newest?.id ?? 0], 6)).toBe(0);
    expect(await markRead(member, "all", 7)).toBe(1);
    expect(await unreadNotifications(member)).toBe(0);
  });

  it("tell a member of the decision on their verification", async () => {
    const member = await newMember("Applicant");
    const reviewer = await newMember("Reviewer");
    const { meta } = await env.DB.prepare(
      "INSERT INTO verifications (user_id, kind, fields, photos, status, submitted_at) VALUES (?, 'personal', '{}', '{}', 'pending', 1)",
    )
      .bind(member)
      .run();
    await decideVerification(reviewer, meta.last_row_id, { decision: "approve" }, 2);
    expect(await kinds(member)).toEqual(["verification:approved:null"]);
  });
});
