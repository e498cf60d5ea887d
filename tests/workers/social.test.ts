import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { addComment, deleteComment, setFollow, setLike, socialOf } from "~/.server/social/social";
import { COMMENT_REPEAT_WINDOW_MS } from "~/lib/limits";
import { newItem, newMember } from "./helpers";

const member = () => newMember();
const item = (owner: number) => newItem(owner);

const likesOf = async (id: number) =>
  (await env.DB.prepare("SELECT likes FROM content WHERE id = ?").bind(id).first<{ likes: number }>())?.likes;

describe("likes, follows and comments", () => {
  it("a like counts once however often it is sent, and unliking twice takes one away", async () => {
    const owner = await member();
    const fan = await member();
    const id = await item(owner);
    await setLike(fan, id, true, 1);
    await setLike(fan, id, true, 2);
    expect(await likesOf(id)).toBe(1);
    await setLike(fan, id, false, 3);
    await setLike(fan, id, false, 4);
    expect(await likesOf(id)).toBe(0);
  });

  it("a follow counts once, never of oneself, and can be undone", async () => {
    const owner = await member();
    const fan = await member();
    const id = await item(owner);
    await setFollow(fan, owner, true, 1);
    await setFollow(fan, owner, true, 2);
    await setFollow(owner, owner, true, 3);
    expect(await socialOf(fan, id, owner)).toMatchObject({ following: true, followers: 1 });
    await setFollow(fan, owner, false, 4);
    expect(await socialOf(fan, id, owner)).toMatchObject({ following: false, followers: 0 });
  });

  it("comments are listed in order and only their author can delete them", async () => {
    const owner = await member();
    const fan = await member();
    const id = await item(owner);
    await addComment(fan, id, "<b>first</b>", 1);
    await addComment(owner, id, "second", 2);
    const { comments } = await socialOf(fan, id, owner);
    expect(comments.map((c) => c.body)).toEqual(["<b>first</b>", "second"]);
    expect(await deleteComment(owner, comments[0]?.id ?? 0)).toBe(false);
    expect(await deleteComment(fan, comments[0]?.id ?? 0)).toBe(true);
  });

  it("a comment submitted ten times at once with one form key is stored, and awarded, once", async () => {
    const owner = await member();
    const fan = await member();
    const id = await item(owner);
    const stored = await Promise.all(Array.from({ length: 10 }, () => addComment(fan, id, "said once", 5, "form-key-0001")));
    expect(stored.sort()).toEqual(["repeat", "repeat", "repeat", "repeat", "repeat", "repeat", "repeat", "repeat", "repeat", "stored"]);
    expect((await socialOf(fan, id, owner)).comments.map((c) => c.body)).toEqual(["said once"]);
    const points = await env.DB.prepare("SELECT count(*) AS n FROM points WHERE user_id = ? AND reason = 'comment'").bind(fan).first("n");
    expect(points).toBe(1);
  });

  it("without a form key, the same words from one member on one item within a minute are one comment, even ten at once", async () => {
    const owner = await member();
    const fan = await member();
    const id = await item(owner);
    const at = 1_000_000;
    const posted = await Promise.all(Array.from({ length: 10 }, () => addComment(fan, id, "no key", at)));
    expect(posted.filter((answer) => answer === "stored")).toHaveLength(1);
    expect(posted.filter((answer) => answer === "repeat")).toHaveLength(9);
    // Other words are another comment; the same words again after the window are too, and another member's always.
    expect(await addComment(fan, id, "other words", at + 1)).toBe("stored");
    expect(await addComment(fan, id, "no key", at + COMMENT_REPEAT_WINDOW_MS + 1)).toBe("stored");
    expect(await addComment(owner, id, "no key", at + 2)).toBe("stored");
    expect((await socialOf(fan, id, owner)).comments.map((c) => c.body)).toEqual(["no key", "other words", "no key", "no key"]);
  });
});
