import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { AccountError } from "~/.server/accounts/account-error";
import { login, register, sendVerificationCode } from "~/.server/accounts/accounts";
import { createSession, findSession } from "~/.server/accounts/sessions";
import { config } from "~/.server/config/config";
import { findContent, updateContent } from "~/.server/content/content";
import { feedQuerySchema, listFeed } from "~/.server/content/feed";
import { translator } from "~/.server/i18n/translate";
import { listConversations, startConversation, unreadTotal } from "~/.server/messaging/conversations";
import { conversationRoom } from "~/.server/messaging/live";
import { decide, fileReport, moderated, openReports } from "~/.server/moderation/reports";
import { attempt } from "~/.server/refused";
import { NOT_AVAILABLE } from "~/.server/social/block-rules";
import { block, MAX_BLOCKS, unblock } from "~/.server/social/blocks";
import { addComment, setFollow, socialOf } from "~/.server/social/social";
import { translateError } from "~/lib/form-errors";
import { history, mailedCode, newItem, newMember, sendMessage, testCaller, uniqueEmail } from "./helpers";

const now = Date.UTC(2026, 10, 22, 12);
const follows = async (a: number, b: number) =>
  Boolean(await env.DB.prepare("SELECT 1 FROM follows WHERE follower_id = ? AND followee_id = ?").bind(a, b).first());

async function conversation(a: number, b: number) {
  const started = await startConversation(a, b, now);
  return started.id;
}

describe("blocking", () => {
  it("stops the blocked member following, commenting on the blocker's uploads and messaging, and ends follows both ways", async () => {
    const blocker = await newMember("Blocker");
    const pest = await newMember("Pest");
    const item = await newItem(blocker);
    const id = await conversation(blocker, pest);
    await setFollow(pest, blocker, true, now);
    await setFollow(blocker, pest, true, now);
    expect([await follows(pest, blocker), await follows(blocker, pest)]).toEqual([true, true]);

    expect(await block(blocker, pest, now)).toBe(true);
    expect(await block(blocker, pest, now)).toBe(false); // a repeat changes nothing
    expect(await follows(pest, blocker)).toBe(false);
    expect(await follows(blocker, pest)).toBe(false);
    const notAvailable = { status: 403, key: NOT_AVAILABLE };
    await expect(setFollow(pest, blocker, true, now)).rejects.toMatchObject(notAvailable);
    await expect(addComment(pest, item, "hello", now, "key-12345678")).rejects.toMatchObject(notAvailable);
    expect(await sendMessage(id, pest, "hello?", crypto.randomUUID())).toBeNull();
    expect(await conversationRoom(id).send(id, pest, { body: "hello?", client_id: crypto.randomUUID() })).toBeNull();
    await expect(startConversation(pest, blocker, now)).rejects.toMatchObject(notAvailable);
    expect((await socialOf(blocker, item, blocker)).comments).toEqual([]);
    expect((await history(id)).messages).toEqual([]);

    // Someone else is not affected, and unblocking lets everything through again.
    const friend = await newMember("Friend");
    expect(await addComment(friend, item, "nice", now)).toBe("stored");
    await unblock(blocker, pest);
    await setFollow(pest, blocker, true, now);
    expect(await follows(pest, blocker)).toBe(true);
    expect(await sendMessage(id, pest, "sorry", crypto.randomUUID())).not.toBeNull();
  });

  it("refuses a block past the list's limit, saying why, and oneself or no one as not available", async () => {
    const me = await newMember("Blocks many");
    const full = `full-${me}-`;
    await env.DB.prepare(
      `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?2)
       INSERT INTO users (email, password_hash, account_type, kind, nick_name, created_at)
       SELECT ?1 || i || '@example.test', 'x', 1, 'individual', 'Blocked', 0 FROM n`,
    )
      .bind(full, MAX_BLOCKS)
      .run();
    await env.DB.prepare("INSERT INTO blocks (blocker_id, blocked_id, created_at) SELECT ?1, id, 0 FROM users WHERE email LIKE ?2")
      .bind(me, `${full}%`)
      .run();
    const one = await newMember("One too many");
    await expect(block(me, one, now)).rejects.toMatchObject({ status: 400, key: `safety.blockListFull|max=${MAX_BLOCKS}` });
    await unblock(
      me,
      (await env.DB.prepare("SELECT id FROM users WHERE email = ?").bind(`${full}1@example.test`).first<{ id: number }>())?.id ?? 0,
    );
    expect(await block(me, one, now)).toBe(true);
    await expect(block(me, me, now)).rejects.toMatchObject({ status: 403, key: NOT_AVAILABLE });
    await expect(block(me, 987_654_321, now)).rejects.toMatchObject({ status: 403, key: NOT_AVAILABLE });
  });

  it("lets no follow or message slip in beside a block made at the same moment", async () => {
    for (let round = 0; round < 5; round++) {
      const blocker = await newMember("Blocker");
      const pest = await newMember("Pest");
      const id = await conversation(blocker, pest);
      const [, followed, sent] = await Promise.all([
        block(blocker, pest, now),
        attempt(() => setFollow(pest, blocker, true, now)),
        sendMessage(id, pest, "racing", crypto.randomUUID()),
      ]);
      // Whatever the order, what went in before the block is gone (follows) or was already sent, and
      // nothing is left that the block should have stopped.
      expect(await follows(pest, blocker)).toBe(false);
      expect(followed === undefined || followed.key === NOT_AVAILABLE).toBe(true);
      const after = await sendMessage(id, pest, "after", crypto.randomUUID());
      expect(after).toBeNull();
      expect(sent === null || sent.message.body === "racing").toBe(true);
    }
  });
});

describe("reports and moderation", () => {
  it("decides only on what was reported, with a decision that fits it, and never suspends a role holder", async () => {
    const moderator = await newMember("Moderator");
    const author = await newMember("Author");
    const other = await newMember("Other");
    const id = await conversation(author, other);
    const sent = await sendMessage(id, author, "a private word", crypto.randomUUID());
    const message = sent?.message.id ?? 0;
    // Nobody reported it: a moderator cannot hide (and so read) a private message.
    expect(await decide(moderator, { target_type: "message", target_id: message, action: "hide", reason: "spam" }, now)).toBe(false);
    expect(await decide(moderator, { target_type: "member", target_id: author, action: "suspend", reason: "spam" }, now)).toBe(false);
    await fileReport(other, { target_type: "member", target_id: author, reason: "spam", details: "" }, now);
    expect(await decide(moderator, { target_type: "member", target_id: author, action: "hide", reason: "spam" }, now)).toBe(false);
    await env.DB.prepare("INSERT INTO member_roles (user_id, role, granted_at) VALUES (?, 'moderator', 0)").bind(author).run();
    expect(await decide(moderator, { target_type: "member", target_id: author, action: "suspend", reason: "spam" }, now)).toBe(false);
    expect(await env.DB.prepare("SELECT suspended_reason FROM users WHERE id = ?").bind(author).first("suspended_reason")).toBeNull();
  });

  it("keeps a hidden message out of the conversation list and the unread counts, until a moderator restores it", async () => {
    const moderator = await newMember("Moderator");
    const author = await newMember("Author");
    const reader = await newMember("Reader");
    const id = await conversation(author, reader);
    const sent = await sendMessage(id, author, "rude words", crypto.randomUUID());
    await fileReport(reader, { target_type: "message", target_id: sent?.message.id ?? 0, reason: "harassment", details: "" }, now);
    await decide(moderator, { target_type: "message", target_id: sent?.message.id ?? 0, action: "hide", reason: "harassment" }, now);
    const [listed] = await listConversations(reader);
    expect(listed?.last_message).toBeNull();
    expect(listed?.unread_count).toBe(0);
    expect(await unreadTotal(reader)).toBe(0);
    expect((await moderated()).hidden).toContainEqual(expect.objectContaining({ target_type: "message", preview: "rude words" }));
    const restore = { target_type: "message", target_id: sent?.message.id ?? 0, action: "restore", reason: "harassment" } as const;
    expect(await decide(moderator, restore, now)).toBe(true);
    expect((await listConversations(reader))[0]?.last_message?.body).toBe("rude words");
    expect(await unreadTotal(reader)).toBe(1);
  });

  it("lets a report on something deleted since be dismissed, and a restore gives an upload back its owner's choice", async () => {
    const moderator = await newMember("Moderator");
    const author = await newMember("Author");
    const reader = await newMember("Reader");
    const item = await newItem(author);
    await addComment(author, item, "soon gone", now);
    const comment = await env.DB.prepare("SELECT max(id) AS id FROM comments WHERE user_id = ?").bind(author).first<{ id: number }>();
    await fileReport(reader, { target_type: "comment", target_id: comment?.id ?? 0, reason: "spam", details: "" }, now);
    await env.DB.prepare("DELETE FROM comments WHERE id = ?").bind(comment?.id).run();
    expect(await decide(moderator, { target_type: "comment", target_id: comment?.id ?? 0, action: "dismiss", reason: "spam" }, now)).toBe(
      true,
    );
    expect((await openReports()).some((r) => r.target_type === "comment" && r.target_id === comment?.id)).toBe(false);

    await fileReport(reader, { target_type: "content", target_id: item, reason: "spam", details: "" }, now);
    await decide(moderator, { target_type: "content", target_id: item, action: "hide", reason: "spam" }, now);
    // While it is hidden the owner decides to keep it private; the restore honours that.
    await updateContent(
      item,
      author,
      {
        sdg: 1,
        title: "t",
        summary: "s",
        content: "c",
        keywords: "k",
        publicize: "0",
        open_record: "0",
        on_behalf: "0",
        doi: null,
        authors: [],
        year: null,
      },
      now,
    );
    await decide(moderator, { target_type: "content", target_id: item, action: "restore", reason: "other" }, now);
    expect(await findContent(item, reader)).toBeNull();
    expect((await findContent(item, author))?.hidden_at).toBeNull();
  });

  it("takes one report per member and target, only for what the reporter can see, and never their own", async () => {
    const author = await newMember("Author");
    const reporter = await newMember("Reporter");
    const stranger = await newMember("Stranger");
    const item = await newItem(author, { title: "Dubious results" });
    const hidden = await newItem(author, { publicize: 0 });
    const report = { target_type: "content" as const, target_id: item, reason: "misinformation" as const, details: "numbers made up" };
    await fileReport(reporter, report, now);
    await fileReport(reporter, report, now + 1);
    await fileReport(stranger, { ...report, reason: "spam" }, now + 2);
    await expect(fileReport(reporter, { ...report, target_id: hidden }, now)).rejects.toMatchObject({ status: 403, key: NOT_AVAILABLE });
    await expect(fileReport(author, report, now)).rejects.toMatchObject({ status: 403, key: NOT_AVAILABLE });
    // A message is reportable only by the other member of its conversation.
    const id = await conversation(author, reporter);
    const sent = await sendMessage(id, author, "buy my book", crypto.randomUUID());
    const message = { target_type: "message" as const, target_id: sent?.message.id ?? 0, reason: "spam" as const, details: "" };
    await expect(fileReport(stranger, message, now)).rejects.toMatchObject({ status: 403, key: NOT_AVAILABLE });
    await fileReport(reporter, message, now);

    const queued = (await openReports()).find((r) => r.target_type === "content" && r.target_id === item);
    expect(queued).toMatchObject({
      reports: 2,
      reason: "misinformation",
      details: "numbers made up",
      preview: "Dubious results",
      author_id: author,
    });
  });

  it("hides an upload from everyone but its owner until restored, and resolves its reports", async () => {
    const moderator = await newMember("Moderator");
    const author = await newMember("Author");
    const reader = await newMember("Reader");
    const item = await newItem(author, { title: "To hide", created_at: now });
    await fileReport(reader, { target_type: "content", target_id: item, reason: "spam", details: "" }, now);
    expect(await decide(moderator, { target_type: "content", target_id: item, action: "hide", reason: "spam" }, now)).toBe(true);
    expect(await findContent(item, reader)).toBeNull();
    expect((await findContent(item, author))?.hidden_at).toBe(now);
    const feed = await listFeed(feedQuerySchema.parse({}), 1000);
    expect(JSON.stringify(feed)).not.toContain('"To hide"');
    // The owner cannot make it public again on their own.
    await updateContent(
      item,
      author,
      {
        sdg: 1,
        title: "To hide",
        summary: "s",
        content: "c",
        keywords: "k",
        publicize: "1",
        open_record: "0",
        on_behalf: "0",
        doi: null,
        authors: [],
        year: null,
      },
      now,
    );
    expect(await findContent(item, reader)).toBeNull();
    expect((await openReports()).some((r) => r.target_type === "content" && r.target_id === item)).toBe(false);

    await decide(moderator, { target_type: "content", target_id: item, action: "restore", reason: "other" }, now);
    expect(await findContent(item, reader)).not.toBeNull();
  });

  it("suspends a member: their sessions end, they cannot sign in and are told why, and they are mailed", async () => {
    const email = uniqueEmail("suspect");
    const { caller, settle } = testCaller();
    await sendVerificationCode(email, "register", caller);
    await settle();
    const { token, user } = await register(
      { email, code: await mailedCode(email), password: "a long enough password", nickName: "Suspect", accountType: 1, kind: "individual" },
      caller,
    );
    const moderator = await newMember("Moderator");
    const witness = await newMember("Witness");
    await fileReport(witness, { target_type: "member", target_id: user.id, reason: "harassment", details: "" }, now);
    const mail: Promise<unknown>[] = [];
    await decide(moderator, { target_type: "member", target_id: user.id, action: "suspend", reason: "harassment" }, now, (p) =>
      mail.push(p),
    );
    await Promise.all(mail);
    expect((await findSession(token, Date.now())).status).toBe("none");
    const refused = await login(email, "a long enough password", testCaller().caller).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(AccountError);
    expect(refused).toMatchObject({ code: "suspended", reason: "harassment" });
    // A wrong password hears the usual answer: the suspension is no one else's business.
    await expect(login(email, "wrong password", testCaller().caller)).rejects.toMatchObject({ code: "invalid_credentials" });
    const mails = await env.DB.prepare("SELECT subject, body FROM mail_outbox WHERE to_email = ? ORDER BY id")
      .bind(email)
      .all<{ subject: string; body: string }>();
    expect(mails.results.at(-1)?.subject).toBe("Your Research Commons account is suspended");
    // Both the mail and the refused sign-in name where to appeal (the APPEAL_ADDRESS setting).
    expect(mails.results.at(-1)?.body).toContain(`write to ${config().appealAddress} to appeal`);
    expect(translateError(translator("en"), (refused as AccountError).key)).toBe(
      `This account is suspended (Harassment or hate). If you think this is a mistake, write to ${config().appealAddress} to appeal.`,
    );

    await decide(moderator, { target_type: "member", target_id: user.id, action: "unsuspend", reason: "other" }, now);
    await expect(login(email, "a long enough password", testCaller().caller)).resolves.toHaveProperty("token");
    // Sessions made before a suspension stay ended even if one slipped in.
    const session = await createSession(user.id, Date.now());
    await env.DB.prepare("UPDATE users SET suspended_reason = 'spam' WHERE id = ?").bind(user.id).run();
    expect((await findSession(session, Date.now())).status).toBe("none");
  });
});
