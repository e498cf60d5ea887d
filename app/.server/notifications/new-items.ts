import { env } from "~/.server/bindings";
import type { NewItemJob, NewItemStage } from "~/.server/jobs/jobs";
import { enqueue } from "~/.server/jobs/queue";
import { type Read, readOne } from "~/.server/reads";
import { Refused } from "~/.server/refused";
import { searchTerms } from "~/.server/search/search";
import { BLOCKED_BETWEEN } from "~/.server/social/block-rules";
import { NEW_ITEM_PAGE, SAVED_SEARCHES_MAX } from "~/lib/limits";
import type { Following, SavedSearch } from "~/lib/shapes";
import { notifyMany } from "./notifications";

// A new public item tells who wants to know (docs/decisions/0040-calm-notifications.md): its
// uploader's followers, then the members following its goal, then those whose saved search it
// matches. A job per item, in pages of members, never on the uploader's request; every stage uses
// the same event key, so a member hears of an item once, under the first reason that applies.

const NEXT: Record<NewItemStage, NewItemStage | null> = { followers: "goals", goals: "searches", searches: null };

/** The first job of an item that just became public, or of a new version of one (its followers only). */
export const newItemJob = (id: number, version?: number): NewItemJob => ({
  type: "new-item",
  id,
  stage: "followers",
  after: 0,
  ...(version ? { version } : {}),
});

interface Item {
  id: number;
  owner_id: number;
  kind: "document" | "video";
  sdg: number;
  text: string;
}

/** Whether every word of a saved search is in the item's fields, as the search finds words (case aside). */
export function matchesSearch(terms: readonly string[], text: string): boolean {
  const haystack = text.toLocaleLowerCase();
  return terms.length > 0 && terms.every((term) => haystack.includes(term.toLocaleLowerCase()));
}

/** One page of one stage; queues the next page or stage. Safe to repeat (the event key is per member). */
export async function matchNewItem(job: NewItemJob, now: number) {
  const db = env.DB;
  const item = await db
    .prepare(
      `SELECT id, owner_id, kind, sdg, title || ' ' || summary || ' ' || content || ' ' || keywords || ' ' || authors AS text
         FROM content WHERE id = ? AND publicize = 1 AND hidden_at IS NULL`,
    )
    .bind(job.id)
    .first<Item>();
  // Gone, private or hidden meanwhile: nobody is told.
  if (!item) return { told: 0, next: null };
  const notBlocked = `NOT ${BLOCKED_BETWEEN("?1", "x.member")}`;
  let members: number[] = [];
  let last = 0;
  let full = false;
  if (job.stage === "searches") {
    const { results } = await db
      .prepare(
        `SELECT * FROM (SELECT s.id, s.user_id AS member, s.terms FROM saved_searches s
           WHERE s.id > ?2 AND (s.kind IS NULL OR s.kind = ?3) AND (s.sdg IS NULL OR s.sdg = ?4) AND s.user_id <> ?1 ORDER BY s.id LIMIT ?5) x
         WHERE ${notBlocked}`,
      )
      .bind(item.owner_id, job.after, item.kind, item.sdg, NEW_ITEM_PAGE)
      .all<{ id: number; member: number; terms: string }>();
    // The page's last id, blocked ones included, so the next page starts after it.
    const page = await db
      .prepare("SELECT max(id) AS last, count(*) AS n FROM (SELECT id FROM saved_searches WHERE id > ? ORDER BY id LIMIT ?)")
      .bind(job.after, NEW_ITEM_PAGE)
      .first<{ last: number | null; n: number }>();
    members = [...new Set(results.filter((row) => matchesSearch(JSON.parse(row.terms) as string[], item.text)).map((row) => row.member))];
    last = page?.last ?? 0;
    full = (page?.n ?? 0) === NEW_ITEM_PAGE;
  } else {
    const sql =
      job.stage === "followers"
        ? "SELECT follower_id AS member FROM follows WHERE followee_id = ?1 AND follower_id > ?2 ORDER BY follower_id LIMIT ?3"
        : "SELECT user_id AS member FROM goal_follows WHERE sdg = ?4 AND user_id > ?2 AND user_id <> ?1 ORDER BY user_id LIMIT ?3";
    const params =
      job.stage === "followers" ? [item.owner_id, job.after, NEW_ITEM_PAGE] : [item.owner_id, job.after, NEW_ITEM_PAGE, item.sdg];
    const { results } = await db
      .prepare(`SELECT member, ${notBlocked} AS allowed FROM (${sql}) x`)
      .bind(...params)
      .all<{ member: number; allowed: number }>();
    members = results.filter((row) => row.allowed).map((row) => row.member);
    last = results.at(-1)?.member ?? 0;
    full = results.length === NEW_ITEM_PAGE;
  }
  const kind = job.stage === "followers" ? "followed_upload" : job.stage === "goals" ? "goal_item" : "saved_search";
  const told = await notifyMany(
    members,
    job.version
      ? { kind, event: "version", key: `new-version:${item.id}:${job.version}`, subjectId: item.id, actorId: item.owner_id }
      : { kind, event: "new", key: `new-item:${item.id}`, subjectId: item.id, actorId: item.owner_id },
    now,
  );
  const stage = job.version ? null : NEXT[job.stage];
  const next = full ? { ...job, after: last } : stage ? { ...job, stage, after: 0 } : null;
  if (next) await enqueue([next]);
  return { told: told.length, next: next?.stage ?? null };
}

/** Saves a search (its words and filters); the same search again is the same one, answered again. */
export async function saveSearch(
  userId: number,
  search: { q: string; kind: "document" | "video" | null; sdg: number | null },
  now: number,
) {
  const terms = searchTerms(search.q);
  if (terms.length === 0) throw new Refused("validation.savedSearchEmpty", { field: "q" });
  const id = await env.DB.prepare(
    `INSERT INTO saved_searches (user_id, q, terms, kind, sdg, created_at)
     SELECT ?1, ?2, ?3, ?4, ?5, ?6 WHERE (SELECT count(*) FROM saved_searches WHERE user_id = ?1) < ?7
     ON CONFLICT (user_id, q, coalesce(kind, ''), coalesce(sdg, 0)) DO UPDATE SET created_at = created_at RETURNING id`,
  )
    .bind(userId, terms.join(" "), JSON.stringify(terms), search.kind, search.sdg, now, SAVED_SEARCHES_MAX)
    .first<number>("id");
  if (id === null) throw new Refused(`validation.savedSearchesFull|max=${SAVED_SEARCHES_MAX}`, { status: 409 });
  return id;
}

/** The goals the member follows and the searches they saved (a page reads it beside its other reads). */
export const followingRead = (userId: number): Read<Following> => ({
  statements: [
    env.DB.prepare("SELECT sdg FROM goal_follows WHERE user_id = ? ORDER BY sdg").bind(userId),
    env.DB.prepare("SELECT id, q, kind, sdg, created_at FROM saved_searches WHERE user_id = ? ORDER BY id DESC").bind(userId),
  ],
  decode: ([goals, searches]) => ({
    goals: ((goals?.results ?? []) as { sdg: number }[]).map((row) => row.sdg),
    searches: (searches?.results ?? []) as SavedSearch[],
  }),
});

export const followingOf = (userId: number) => readOne(followingRead(userId));

export async function deleteSavedSearch(userId: number, id: number): Promise<boolean> {
  const result = await env.DB.prepare("DELETE FROM saved_searches WHERE id = ? AND user_id = ?").bind(id, userId).run();
  return result.meta.changes > 0;
}

/** Follows (or stops following) a goal, for notifications of its new items; a repeat changes nothing. */
export async function followGoal(userId: number, sdg: number, following: boolean, now: number) {
  const db = env.DB;
  await (following
    ? db.prepare("INSERT OR IGNORE INTO goal_follows (user_id, sdg, created_at) VALUES (?, ?, ?)").bind(userId, sdg, now)
    : db.prepare("DELETE FROM goal_follows WHERE user_id = ? AND sdg = ?").bind(userId, sdg)
  ).run();
}

export const followedGoals = async (userId: number) => (await followingOf(userId)).goals;
