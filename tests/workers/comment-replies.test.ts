import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { listNotifications } from "~/.server/notifications/notifications";
import { mentionSuggestions } from "~/.server/social/mentions";
import { addComment, deleteComment, socialOf } from "~/.server/social/social";
import { newItem, newMember, refusedKey } from "./helpers";

// Replies and mentions in comments (issue 33, decision 0040).

const NOW = Date.UTC(2026, 11, 2, 9);
let n = 0;
const say = (author: number, item: number, body: string, parent?: number) =>
  addComment(author, item, body, NOW + ++n * 60_000, `k-${crypto.randomUUID()}`, parent);
const heard = async (member: number) => (await listNotifications(member)).map((row) => `${row.kind}:${row.actor_id}`);
const comments = async (viewer: number, item: number, owner: number) => (await socialOf(viewer, item, owner)).comments;
const unique = (name: string) => `${name} ${crypto.randomUUID().slice(0, 6)}`;

describe("replies", () => {
  it("join their thread's first comment, tell the replied-to author and the owner, and keep a deleted first comment's place", async () => {
    const owner = await newMember("Owner");
    const [first, second] = [await newMember("First"), await newMember("Second")];
    const item = await newItem(owner);
    await say(first, item, "A question");
    const [root] = await comments(first, item, owner);
    await say(second, item, "An answer", root?.id);
    const answer = (await comments(first, item, owner)).at(-1);
    // A reply to the reply joins the same thread.
    await say(first, item, "Thanks", answer?.id);
    expect((await comments(first, item, owner)).map((c) => [c.body, c.parent_id])).toEqual([
      ["A question", null],
      ["An answer", root?.id],
      ["Thanks", root?.id],
    ]);
    expect(await heard(first)).toEqual([`reply:${second}`]);
    expect((await heard(second)).sort()).toEqual([`reply:${first}`]);
    expect((await heard(owner)).sort()).toEqual([`comment:${first}`, `comment:${first}`, `comment:${second}`]);
    // Deleting the first comment keeps its place: "deleted comment", words gone, replies in it.
    expect(await deleteComment(first, root?.id ?? 0)).toBe(true);
    expect((await comments(owner, item, owner))[0]).toMatchObject({ id: root?.id, body: "", deleted: 1 });
    // A reply to a comment of another item, or gone, is refused and stores nothing.
    const other = await newItem(owner);
    expect(await refusedKey(say(second, other, "Lost", answer?.id))).toBe("validation.replyGone");
    expect(await comments(owner, other, owner)).toEqual([]);
  });
});

describe("replies across a block", () => {
  it("tell no comment's author who blocked the replier (or whom the replier blocked), and still store the reply", async () => {
    const owner = await newMember("Owner");
    const [first, replier, blockedByReplier] = [await newMember("First"), await newMember("Replier"), await newMember("Shunned")];
    const item = await newItem(owner);
    await say(first, item, "A question");
    await say(blockedByReplier, item, "Another question");
    const [root, other] = await comments(first, item, owner);
    await env.DB.prepare("INSERT INTO blocks (blocker_id, blocked_id, created_at) VALUES (?, ?, 1), (?, ?, 1)")
      .bind(first, replier, replier, blockedByReplier)
      .run();
    expect(await say(replier, item, "An answer", root?.id)).toBe("stored");
    expect(await say(replier, item, "Another answer", other?.id)).toBe("stored");
    expect(await heard(first)).toEqual([]);
    expect(await heard(blockedByReplier)).toEqual([]);
    // The owner, with no block, still hears of every comment.
    expect((await heard(owner)).sort()).toEqual(
      [`comment:${first}`, `comment:${blockedByReplier}`, `comment:${replier}`, `comment:${replier}`].sort(),
    );
  });
});

describe("mentions", () => {
  it("tell the member named (the longest name that fits, case aside), once; an unknown @name is text", async () => {
    const owner = await newMember("Owner");
    const name = unique("Aiko");
    const [aiko, aikoLonger] = [await newMember(name), await newMember(`${name} Tanaka`)];
    const author = await newMember("Author");
    const item = await newItem(owner);
    expect(await say(author, item, `Thanks @${name.toUpperCase()} and @${name} Tanaka, and @nobody-${n}.`)).toBe("stored");
    expect(await heard(aiko)).toEqual([`mention:${author}`]);
    expect(await heard(aikoLonger)).toEqual([`mention:${author}`]);
  });

  it("notify nobody who cannot see the item or who blocked the author, or is blocked by them", async () => {
    const owner = await newMember("Owner");
    const author = await newMember("Author");
    const [outsider, blocker] = [await newMember(unique("Outsider")), await newMember(unique("Blocker"))];
    const names = await env.DB.prepare("SELECT id, nick_name FROM users WHERE id IN (?, ?)")
      .bind(outsider, blocker)
      .all<{ id: number; nick_name: string }>();
    const nameOf = (id: number) => names.results.find((row) => row.id === id)?.nick_name;
    await env.DB.prepare("INSERT INTO blocks (blocker_id, blocked_id, created_at) VALUES (?, ?, 1)").bind(blocker, author).run();
    const hidden = await newItem(owner, { publicize: 0 });
    await say(owner, hidden, `For @${nameOf(outsider)}`);
    const open = await newItem(owner);
    await say(author, open, `For @${nameOf(blocker)}`);
    expect(await heard(outsider)).toEqual([]);
    expect(await heard(blocker)).toEqual([]);
  });

  it("read a Japanese or Chinese sentence after @ without failing, and still tell a member named in it", async () => {
    const owner = await newMember("Owner");
    const author = await newMember("Author");
    const item = await newItem(owner);
    // Names no other test holds: two kanji of its own after the family name.
    const own = () => String.fromCodePoint(...Array.from(crypto.getRandomValues(new Uint16Array(2)), (r) => 0x4e00 + (r % 0x5000)));
    const [tanakaName, wangName] = [`田中${own()}`, `王${own()}`];
    const [tanaka, wang] = [await newMember(tanakaName), await newMember(wangName)];
    // No space for 49+ bytes after "@": longer than a LIKE pattern may be.
    const long = `@${tanakaName}さん、資料ありがとうございます。とても参考になりました。来週の会議でまたお話しできれば嬉しいです。`;
    expect(await say(author, item, long)).toBe("stored");
    expect(await say(author, item, `@${wangName}同学，谢谢你分享的资料，这对我们的研究非常有帮助，下周会议上再详细讨论吧。`)).toBe(
      "stored",
    );
    expect((await comments(owner, item, owner)).map((c) => c.body)).toContain(long);
    expect(await heard(tanaka)).toEqual([]);
    // "@田中、…" and `@${wangName}，…" name the members, however long the sentence goes on.
    expect(
      await say(
        author,
        item,
        `@${tanakaName}、資料ありがとうございます。とても参考になりました。来週の会議でまたお話しできれば嬉しいです。`,
      ),
    ).toBe("stored");
    expect(await say(author, item, `@${wangName}，谢谢你分享的资料，这对我们的研究非常有帮助，下周会议上再详细讨论吧。`)).toBe("stored");
    expect(await say(author, item, `Thanks @${tanakaName} for the data`)).toBe("stored");
    expect(await heard(tanaka)).toEqual([`mention:${author}`, `mention:${author}`]);
    expect(await heard(wang)).toEqual([`mention:${author}`]);
    // The suggestions shown while typing read a long start as well.
    expect(await mentionSuggestions(long.slice(1, 41))).toEqual([]);
    expect(await mentionSuggestions(tanakaName)).toEqual([{ id: tanaka, nick_name: tanakaName }]);
  });

  it("refuse a name two members share, and more than ten, storing nothing", async () => {
    const owner = await newMember("Owner");
    const twin = unique("Twin");
    await newMember(twin);
    await newMember(twin);
    const item = await newItem(owner);
    expect(await refusedKey(say(owner, item, `Hello @${twin}`))).toBe(`validation.mentionAmbiguous|name=${twin}`);
    const many = await Promise.all(Array.from({ length: 11 }, () => newMember(unique("Many"))));
    const rows = await env.DB.prepare(`SELECT nick_name FROM users WHERE id IN (${many.join(",")})`).all<{ nick_name: string }>();
    expect(await refusedKey(say(owner, item, rows.results.map((row) => `@${row.nick_name}`).join(" ")))).toBe(
      "validation.mentionsTooMany|max=10",
    );
    expect(await comments(owner, item, owner)).toEqual([]);
  });
});
