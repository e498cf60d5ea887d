// "Download my data" (docs/decisions/0018-a-members-own-data.md): everything of a member's, as one
// JSON document streamed section by section, long lists read a page at a time by id so memory stays
// flat however much a member wrote. Reviewers' notes and other members' private data are not in it.

import { env } from "~/.server/bindings";
import { statsDb, textShard } from "~/.server/databases";
import { conversationRoom } from "~/.server/messaging/live";
import { annotationCollection } from "~/.server/social/annotations";

const PAGE = 500;

/** The one-row sections: the account, the profile. */
const SINGLE = {
  account: `SELECT id, email, nick_name, account_type, kind, organisation, organisation_ror, organisation_ror_name, membership, language, created_at,
      orcid, orcid_name, orcid_linked_at FROM users WHERE id = ?1`,
  profile: `SELECT sex, birthday, address, first_name, middle_name, family_name, country, nationality, academic, research, website,
      phone, purpose, abbreviation, industry, organisation_phone, description, legal, organisation_email, public, updated_at, orcid
    FROM profiles WHERE user_id = ?1`,
} as const;

/** The list sections, each paged by its `id` column (ascending, unique per member). */
const LISTS: Record<string, string> = {
  tags: "SELECT id, tag, custom, created_at FROM member_tags WHERE user_id = ?1 AND id > ?2",
  interests: "SELECT sdg AS id, sdg, created_at FROM interests WHERE user_id = ?1 AND sdg > ?2",
  uploads: `SELECT id, kind, sdg, title, summary, content, keywords, doi, authors, published_year, license, publicize, file_type, file_size, views, likes, created_at, updated_at
          FROM content WHERE owner_id = ?1 AND id > ?2`,
  // Every version of their uploads (decision 0042), numbered to page them.
  versions: `SELECT * FROM (SELECT ROW_NUMBER() OVER (ORDER BY v.content_id, v.number) AS id, v.content_id, v.number, v.note, v.title,
            v.file_size, v.file_type, v.doi, v.license, v.created_at FROM content_versions v JOIN content c ON c.id = v.content_id
            WHERE c.owner_id = ?1) WHERE id > ?2`,
  // Who funded their uploads (decision 0052), with DataCite's names.
  funding: `SELECT * FROM (SELECT f.id, f.content_id, f.funder_name, f.funder_id, f.funder_id_type, f.award_number, f.award_uri,
            f.award_title, f.state FROM item_funding f JOIN content c ON c.id = f.content_id WHERE c.owner_id = ?1) WHERE id > ?2`,
  // Their videos' captions (decision 0043); every cue of them follows (`captionCues`, from the shards).
  captions: `SELECT * FROM (SELECT cap.id, cap.content_id, cap.lang, cap.source, cap.cue_count, cap.duration_ms, cap.updated_at
            FROM captions cap JOIN content c ON c.id = cap.content_id WHERE c.owner_id = ?1 AND cap.state = 'ready') WHERE id > ?2`,
  // A passage's `anchor` as its JSON text; on their own items, the annotations section has them as Web Annotations.
  comments:
    "SELECT id, content_id, body, created_at, parent_id, private, anchor, anchor_version FROM comments WHERE user_id = ?1 AND id > ?2",
  following:
    "SELECT f.followee_id AS id, u.nick_name, f.created_at FROM follows f JOIN users u ON u.id = f.followee_id WHERE f.follower_id = ?1 AND f.followee_id > ?2",
  likes: "SELECT content_id AS id, created_at FROM likes WHERE user_id = ?1 AND content_id > ?2",
  points: "SELECT id, reason, amount, day, created_at FROM points WHERE user_id = ?1 AND id > ?2",
  searches: "SELECT rowid AS id, query, searched_at FROM search_history WHERE user_id = ?1 AND rowid > ?2",
  rewards: "SELECT rowid AS id, reward, awarded_at FROM member_rewards WHERE user_id = ?1 AND rowid > ?2",
  blocked: "SELECT blocked_id AS id, created_at FROM blocks WHERE blocker_id = ?1 AND blocked_id > ?2",
  meetingsHosted: `SELECT id, title, agenda, starts_at, duration_minutes, time_zone, provider, join_url, cancelled_at, created_at,
            (SELECT group_concat(email, ', ') FROM meeting_attendees WHERE meeting_id = meetings.id) AS attendees
          FROM meetings WHERE host_id = ?1 AND id > ?2`,
  meetingsInvited: "SELECT meeting_id AS id FROM meeting_participants WHERE user_id = ?1 AND meeting_id > ?2",
  notifications: "SELECT id, kind, event, subject_id, actor_id, created_at, read_at FROM notifications WHERE user_id = ?1 AND id > ?2",
  // Statistics (decision 0039): every day over all items, and each item's months by reader type (rows numbered to page them).
  statisticsDays: `SELECT * FROM (SELECT ROW_NUMBER() OVER (ORDER BY day, kind) AS id, day, kind, n FROM stat_owner_days WHERE owner_id = ?1)
          WHERE id > ?2`,
  statisticsItemMonths: `SELECT * FROM (SELECT ROW_NUMBER() OVER (ORDER BY content_id, month, kind, reader_type) AS id, content_id, month, kind,
            reader_type, n, readers FROM stat_months WHERE owner_id = ?1) WHERE id > ?2`,
  scoreHistory: "SELECT run_id AS id, as_of, score, rank FROM score_history WHERE user_id = ?1 AND run_id > ?2",
  goalsFollowed: "SELECT sdg AS id, sdg, created_at FROM goal_follows WHERE user_id = ?1 AND sdg > ?2",
  savedSearches: "SELECT id, q, kind, sdg, created_at FROM saved_searches WHERE user_id = ?1 AND id > ?2",
};

/** The list sections another database holds (decision 0045); every other one is the core's. */
const LIST_DATABASE: Record<string, () => D1Database> = { statisticsDays: statsDb, statisticsItemMonths: statsDb };

/** The document's text, piece by piece, read from D1 only as fast as the reader takes it. */
async function* pieces(userId: number, now: number, origin: string): AsyncGenerator<string> {
  const db = env.DB;
  yield `{"exported_at":${JSON.stringify(new Date(now).toISOString())}`;
  for (const [name, sql] of Object.entries(SINGLE)) {
    yield `,${JSON.stringify(name)}:${JSON.stringify((await db.prepare(sql).bind(userId).first()) ?? null)}`;
  }
  // The status only: reviewers' notes are theirs (the reason of a rejection was mailed to the member).
  const verification = await db
    .prepare("SELECT kind, status, submitted_at, decided_at FROM verifications WHERE user_id = ? ORDER BY id DESC LIMIT 1")
    .bind(userId)
    .first();
  yield `,"verification":${JSON.stringify(verification ?? { status: "not submitted" })}`;
  for (const [name, sql] of Object.entries(LISTS)) yield* jsonArray(name, listPages(LIST_DATABASE[name]?.() ?? db, sql, userId));
  yield* jsonArray("captionCues", captionCuesOf(userId));
  yield* jsonArray("annotations", annotationsOn(userId, origin));
  yield* jsonArray("messagesSent", messagesSent(userId));
  yield "}";
}

/** A section of rows, `,"name":[…]`, written a page at a time. */
async function* jsonArray(name: string, pages: AsyncIterable<object[]>): AsyncGenerator<string> {
  yield `,${JSON.stringify(name)}:[`;
  let first = true;
  for await (const rows of pages) {
    if (rows.length === 0) continue;
    yield (first ? "" : ",") + rows.map((row) => JSON.stringify(row)).join(",");
    first = false;
  }
  yield "]";
}

/** A LISTS section's rows, a page at a time by its `id` column. */
async function* listPages(db: D1Database, sql: string, userId: number) {
  for (let after = -1; ; ) {
    const { results } = await db.prepare(`${sql} ORDER BY id LIMIT ${PAGE}`).bind(userId, after).all<Record<string, number>>();
    yield results;
    if (results.length < PAGE) return;
    after = Number(results.at(-1)?.id);
  }
}

/**
 * Every cue of the member's caption sets, set by set (a page of sets from the core, each set's cues a
 * page at a time from its item's text shard, decision 0045), the text as members read it.
 */
async function* captionCuesOf(userId: number) {
  for (let after = 0; ; ) {
    const { results: sets } = await env.DB.prepare(
      `SELECT cap.id, cap.write_key, c.text_shard FROM captions cap JOIN content c ON c.id = cap.content_id
       WHERE c.owner_id = ? AND cap.state = 'ready' AND cap.id > ? ORDER BY cap.id LIMIT ${PAGE}`,
    )
      .bind(userId, after)
      .all<{ id: number; write_key: string; text_shard: number }>();
    for (const set of sets) {
      for (let cue = 0; ; ) {
        const { results } = await textShard(set.text_shard)
          .prepare(
            `SELECT id, ${set.id} AS caption_id, start_ms, end_ms, replace(body, char(8203), '') AS text FROM caption_cues
             WHERE caption_key = ? AND id > ? ORDER BY id LIMIT ${PAGE}`,
          )
          .bind(set.write_key, cue)
          .all<{ id: number }>();
        if (results.length > 0) yield results;
        if (results.length < PAGE) break;
        cue = results.at(-1)?.id ?? cue;
      }
    }
    if (sets.length < PAGE) return;
    after = sets.at(-1)?.id ?? after;
  }
}

/** Each of the member's items with comments on passages: its AnnotationCollection, every annotation they see in it (decision 0051). */
async function* annotationsOn(userId: number, origin: string) {
  for (let after = 0; ; ) {
    const { results } = await env.DB.prepare(
      `SELECT id, title FROM content i WHERE owner_id = ? AND id > ?
         AND EXISTS (SELECT 1 FROM comments c WHERE c.content_id = i.id AND c.anchor IS NOT NULL) ORDER BY id LIMIT ${PAGE}`,
    )
      .bind(userId, after)
      .all<{ id: number; title: string }>();
    const collections: object[] = [];
    for (const item of results) collections.push(await annotationCollection(userId, item, origin, true));
    yield collections;
    if (results.length < PAGE) return;
    after = results.at(-1)?.id ?? after;
  }
}

/** The messages the member sent, conversation by conversation, a page at a time from each conversation's object. */
async function* messagesSent(userId: number) {
  for (let conversation = 0; ; ) {
    const { results } = await env.DB.prepare(
      `SELECT conversation_id AS id FROM conversation_members WHERE user_id = ? AND conversation_id > ? ORDER BY conversation_id LIMIT ${PAGE}`,
    )
      .bind(userId, conversation)
      .all<{ id: number }>();
    for (const { id } of results) {
      const room = conversationRoom(id);
      for (let after = 0; ; ) {
        const rows = await room.sentBy(id, userId, after, PAGE);
        if (rows.length > 0) yield rows.map((row) => ({ ...row, conversation_id: id }));
        if (rows.length < PAGE) break;
        after = rows.at(-1)?.id ?? after;
      }
    }
    if (results.length < PAGE) return;
    conversation = results.at(-1)?.id ?? conversation;
  }
}

/** The member's data as a JSON stream: {"exported_at":…,"account":{…},"profile":…,"tags":[…],…}. */
export function exportData(userId: number, now: number, origin: string): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  const source = pieces(userId, now, origin);
  return new ReadableStream({
    async pull(controller) {
      const { value, done } = await source.next();
      if (done) controller.close();
      else controller.enqueue(encoder.encode(value));
    },
    async cancel() {
      await source.return(undefined);
    },
  });
}
