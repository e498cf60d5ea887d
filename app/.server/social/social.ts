import { env } from "~/.server/bindings";
import { type NewNotification, notify } from "~/.server/notifications/notifications";
import { madeOnce } from "~/.server/once";
import { awardPoints } from "~/.server/ranking/ranking";
import { grantRewards } from "~/.server/ranking/rewards";
import { type Read, readOne } from "~/.server/reads";
import { Refused } from "~/.server/refused";
import { COMMENT_REPEAT_WINDOW_MS } from "~/lib/limits";
import type { CommentRow } from "~/lib/shapes";
import { anchorFor, anchorOf, type PassageAsked } from "./anchors";
import { BLOCKED_BETWEEN, NOT_AVAILABLE, SEES_COMMENT } from "./block-rules";
import { mentionedIn } from "./mentions";

// Likes, follows and comments. Every write is idempotent: a repeated like or follow changes nothing.

/** Sets whether `userId` likes the item; the item's like count moves only when the state changes. */
export async function setLike(userId: number, contentId: number, liked: boolean, now: number) {
  const db = env.DB;
  const change = liked
    ? db.prepare("INSERT OR IGNORE INTO likes (user_id, content_id, created_at) VALUES (?, ?, ?)").bind(userId, contentId, now)
    : db.prepare("DELETE FROM likes WHERE user_id = ? AND content_id = ?").bind(userId, contentId);
  const result = await change.run();
  if (!result.meta.changes) return;
  const owner = await db
    .prepare(`UPDATE content SET likes = likes ${liked ? "+" : "-"} 1 WHERE id = ? RETURNING owner_id`)
    .bind(contentId)
    .first<{ owner_id: number }>();
  if (liked && owner && owner.owner_id !== userId) {
    await awardPoints(owner.owner_id, "likeReceived", now);
    const note = { userId: owner.owner_id, kind: "like", event: "like", subjectId: contentId, actorId: userId } as const;
    await notify([{ ...note, key: `like:${contentId}:${userId}` }], now);
  }
}

/** Follows or unfollows; a block between the two refuses the follow (403, without saying so). */
export async function setFollow(followerId: number, followeeId: number, following: boolean, now: number): Promise<void> {
  const db = env.DB;
  if (followerId === followeeId) return;
  if (!following) {
    await db.prepare("DELETE FROM follows WHERE follower_id = ? AND followee_id = ?").bind(followerId, followeeId).run();
    return;
  }
  const inserted = await db
    .prepare(
      `INSERT INTO follows (follower_id, followee_id, created_at) SELECT ?1, ?2, ?3 WHERE NOT ${BLOCKED_BETWEEN("?1", "?2")}
       ON CONFLICT DO NOTHING RETURNING 1`,
    )
    .bind(followerId, followeeId, now)
    .first();
  if (inserted) {
    const note = { userId: followeeId, kind: "follower", event: "follow", subjectId: null, actorId: followerId } as const;
    await notify([{ ...note, key: `follow:${followerId}` }], now);
    // A follower counts toward the followee's milestones.
    await grantRewards(now, followeeId);
    return;
  }
  // Not inserted: a repeat changes nothing; otherwise a block stood between them.
  if (!(await db.prepare("SELECT 1 FROM follows WHERE follower_id = ? AND followee_id = ?").bind(followerId, followeeId).first()))
    throw new Refused(NOT_AVAILABLE, { status: 403 });
}

/** Follows or unfollows a member by id: their follower count after it; a member who does not exist is a 404. */
export async function followMember(
  followerId: number,
  followeeId: number,
  following: boolean,
  now: number,
): Promise<{ followers: number }> {
  const db = env.DB;
  if (
    !Number.isInteger(followeeId) ||
    !(await db.prepare("SELECT 1 FROM users WHERE id = ? AND deleted_at IS NULL").bind(followeeId).first())
  )
    throw new Refused("member.notFound", { status: 404 });
  await setFollow(followerId, followeeId, following, now);
  const row = await db.prepare("SELECT count(*) AS n FROM follows WHERE followee_id = ?").bind(followeeId).first<{ n: number }>();
  return { followers: row?.n ?? 0 };
}

export interface Social {
  liked: boolean;
  following: boolean;
  followers: number;
  comments: CommentRow[];
}

/** The member's own comment with the same words on the item, made within the repeat window (one statement, so posts at once agree). */
const SAME_WORDS_JUST_NOW = "SELECT id FROM comments WHERE content_id = ?1 AND user_id = ?2 AND body = ?3 AND created_at > ?4 - ?6";

/** Where the comment points and who sees it (decision 0051): a passage asked for, and private feedback. */
export type CommentPassage = PassageAsked & { private?: "1" | "0" };

/**
 * Adds a comment once per client key (the form's, made when the page was rendered; once.ts): a
 * repeat of the same submission stores nothing and awards nothing ("repeat"). A member who blocked
 * the author refuses it (403, without saying so). A reply (`parentId`, a comment on the same item
 * the member sees) joins its thread's first comment, and is private when it is; "@name" mentions
 * are read first, so an ambiguous one refuses the comment before anything is stored (decision
 * 0040), as does a passage that is not there (decision 0051).
 */
export async function addComment(
  userId: number,
  contentId: number,
  body: string,
  now: number,
  clientKey?: string,
  parentId?: number,
  passage: CommentPassage = {},
): Promise<"stored" | "repeat"> {
  const db = env.DB;
  const mentioned = await mentionedIn(body);
  const parent =
    parentId === undefined
      ? null
      : await db
          .prepare(
            `SELECT id, parent_id, user_id, private FROM comments c WHERE id = ?1 AND content_id = ?2 AND hidden_at IS NULL AND ${SEES_COMMENT("c", "?3")}`,
          )
          .bind(parentId, contentId, userId)
          .first<{ id: number; parent_id: number | null; user_id: number; private: number }>();
  if (parentId !== undefined && !parent) throw new Refused("validation.replyGone", { field: "body", status: 404 });
  const item = await db
    .prepare("SELECT kind, version FROM content WHERE id = ?")
    .bind(contentId)
    .first<{ kind: string; version: number }>();
  // A reply belongs to its thread: it points where its first comment does.
  const anchor = item && !parent ? await anchorFor({ id: contentId, ...item }, passage) : null;
  const values = [
    contentId,
    userId,
    body,
    now,
    clientKey ?? null,
    COMMENT_REPEAT_WINDOW_MS,
    parent ? (parent.parent_id ?? parent.id) : null,
    anchor ? JSON.stringify(anchor) : null,
    anchor ? (item?.version ?? 1) : null,
    (parent ? parent.private : passage.private === "1") ? 1 : 0,
  ];
  const row = await madeOnce(
    db
      .prepare(
        `INSERT INTO comments (content_id, user_id, body, created_at, client_key, parent_id, anchor, anchor_version, anchor_checked, private)
         SELECT ?1, ?2, ?3, ?4, ?5, ?7, ?8, ?9, ?9, ?10
         WHERE NOT EXISTS (SELECT 1 FROM content c JOIN blocks b ON b.blocker_id = c.owner_id WHERE c.id = ?1 AND b.blocked_id = ?2)
           AND NOT EXISTS (${SAME_WORDS_JUST_NOW})
         ON CONFLICT (user_id, client_key) DO NOTHING RETURNING id`,
      )
      .bind(...values),
    db
      .prepare(`SELECT id FROM comments WHERE user_id = ?2 AND client_key = ?5 UNION ALL ${SAME_WORDS_JUST_NOW}`)
      .bind(...values.slice(0, 6)),
  );
  if (!row) throw new Refused(NOT_AVAILABLE, { status: 403 });
  if (!row.created) return "repeat";
  await awardPoints(userId, "comment", now);
  const hearers = values[9] ? [(parent ?? { user_id: userId }).user_id] : null;
  await notifyOfComment(row.id, userId, contentId, parent?.user_id ?? null, mentioned, now, hearers);
  return "stored";
}

/**
 * Who hears of a new comment, each once: the replied-to comment's author (a reply), the item's owner
 * (a comment), the members mentioned; only those who may see the item, nobody across a block with its author.
 */
async function notifyOfComment(
  commentId: number,
  authorId: number,
  contentId: number,
  repliedTo: number | null,
  mentioned: number[],
  now: number,
  /** A private thread's: only its first author hears beside the owner. */
  privateTo: number[] | null,
) {
  const db = env.DB;
  const item = await db.prepare("SELECT owner_id, publicize, hidden_at FROM content WHERE id = ?").bind(contentId).first<{
    owner_id: number;
    publicize: number;
    hidden_at: number | null;
  }>();
  if (!item) return;
  const base = { subjectId: contentId, actorId: authorId } as const;
  const notes: NewNotification[] = [];
  if (repliedTo !== null) notes.push({ ...base, userId: repliedTo, kind: "reply", event: "reply", key: `reply:${commentId}` });
  if (item.owner_id !== repliedTo)
    notes.push({ ...base, userId: item.owner_id, kind: "comment", event: "comment", key: `comment:${commentId}` });
  const told = new Set([authorId, item.owner_id, repliedTo]);
  for (const id of mentioned)
    if (!told.has(id)) notes.push({ ...base, userId: id, kind: "mention", event: "mention", key: `mention:${commentId}` });
  const { results } = await db
    .prepare(`SELECT j.value AS id FROM json_each(?1) j WHERE (?3 = 1 OR j.value = ?4) AND NOT ${BLOCKED_BETWEEN("j.value", "?2")}`)
    .bind(JSON.stringify(notes.map((note) => note.userId)), authorId, item.publicize && item.hidden_at === null ? 1 : 0, item.owner_id)
    .all<{ id: number }>();
  const kept = new Set(results.map((row) => row.id).filter((id) => !privateTo || id === item.owner_id || privateTo.includes(id)));
  await notify(
    notes.filter((note) => kept.has(note.userId)),
    now,
  );
}

/** Deletes a comment only for its author; one with replies stays as "deleted comment", its words gone. */
export async function deleteComment(userId: number, commentId: number) {
  const db = env.DB;
  const [softly, removed] = await db.batch([
    db
      .prepare(
        "UPDATE comments SET body = '', deleted_at = ?3 WHERE id = ?1 AND user_id = ?2 AND deleted_at IS NULL AND EXISTS (SELECT 1 FROM comments r WHERE r.parent_id = ?1)",
      )
      .bind(commentId, userId, Date.now()),
    db
      .prepare("DELETE FROM comments WHERE id = ?1 AND user_id = ?2 AND NOT EXISTS (SELECT 1 FROM comments r WHERE r.parent_id = ?1)")
      .bind(commentId, userId),
  ]);
  return Boolean(softly?.meta.changes || removed?.meta.changes);
}

/** What the viewer sees of an item's social side: whether they like it and follow its owner, the owner's followers, the comments. */
export function socialRead(viewerId: number, contentId: number, ownerId: number): Read<Social> {
  const db = env.DB;
  return {
    statements: [
      db.prepare("SELECT 1 AS yes FROM likes WHERE user_id = ? AND content_id = ?").bind(viewerId, contentId),
      db.prepare("SELECT 1 AS yes FROM follows WHERE follower_id = ? AND followee_id = ?").bind(viewerId, ownerId),
      db.prepare("SELECT count(*) AS n FROM follows WHERE followee_id = ?").bind(ownerId),
      db
        .prepare(
          `SELECT c.id, c.user_id, u.nick_name, c.body, c.created_at, c.parent_id, c.deleted_at IS NOT NULL AS deleted, c.private,
             c.anchor, c.anchor_version
             FROM comments c JOIN users u ON u.id = c.user_id AND u.deleted_at IS NULL
             WHERE c.content_id = ?1 AND c.hidden_at IS NULL AND ${SEES_COMMENT("c", "?2")} ORDER BY c.created_at, c.id`,
        )
        .bind(contentId, viewerId),
    ],
    decode: ([liked, following, followers, comments]) => ({
      liked: Boolean(liked?.results.length),
      following: Boolean(following?.results.length),
      followers: Number((followers?.results[0] as { n: number } | undefined)?.n ?? 0),
      comments: ((comments?.results ?? []) as (Omit<CommentRow, "anchor"> & { anchor: string | null })[]).map((row) => ({
        ...row,
        anchor: anchorOf(row.anchor),
      })),
    }),
  };
}

export const socialOf = (viewerId: number, contentId: number, ownerId: number) => readOne(socialRead(viewerId, contentId, ownerId));
