// "Download my data" (docs/decisions/0018-a-members-own-data.md): everything of a member's, as one
// JSON document streamed section by section, long lists read a page at a time by id so memory stays
// flat however much a member wrote. Reviewers' notes and other members' private data are not in it.

const PAGE = 500;

/** The one-row sections: the account, the profile. */
const SINGLE = {
  account: "SELECT id, email, nick_name, account_type, kind, organisation, membership, language, created_at FROM users WHERE id = ?1",
  profile: `SELECT sex, birthday, address, first_name, middle_name, family_name, country, nationality, academic, research, website,
      phone, purpose, abbreviation, industry, organisation_phone, description, legal, organisation_email, public, updated_at
    FROM profiles WHERE user_id = ?1`,
} as const;

/** The list sections, each paged by its `key` column (ascending, unique per member). */
const LISTS: Record<string, { sql: string; key: string }> = {
  tags: { sql: "SELECT id, tag, custom, created_at FROM member_tags WHERE user_id = ?1 AND id > ?2", key: "id" },
  interests: { sql: "SELECT sdg AS id, sdg, created_at FROM interests WHERE user_id = ?1 AND sdg > ?2", key: "id" },
  uploads: {
    sql: `SELECT id, kind, sdg, title, summary, content, keywords, publicize, file_type, file_size, views, likes, created_at, updated_at
          FROM content WHERE owner_id = ?1 AND id > ?2`,
    key: "id",
  },
  comments: { sql: "SELECT id, content_id, body, created_at FROM comments WHERE user_id = ?1 AND id > ?2", key: "id" },
  messagesSent: {
    sql: "SELECT id, conversation_id, body, created_at FROM messages WHERE sender_id = ?1 AND id > ?2",
    key: "id",
  },
  following: {
    sql: "SELECT f.followee_id AS id, u.nick_name, f.created_at FROM follows f JOIN users u ON u.id = f.followee_id WHERE f.follower_id = ?1 AND f.followee_id > ?2",
    key: "id",
  },
  likes: { sql: "SELECT content_id AS id, created_at FROM likes WHERE user_id = ?1 AND content_id > ?2", key: "id" },
  points: { sql: "SELECT id, reason, amount, day, created_at FROM points WHERE user_id = ?1 AND id > ?2", key: "id" },
  searches: {
    sql: "SELECT rowid AS id, query, searched_at FROM search_history WHERE user_id = ?1 AND rowid > ?2",
    key: "id",
  },
  rewards: { sql: "SELECT rowid AS id, reward, awarded_at FROM member_rewards WHERE user_id = ?1 AND rowid > ?2", key: "id" },
  blocked: { sql: "SELECT blocked_id AS id, created_at FROM blocks WHERE blocker_id = ?1 AND blocked_id > ?2", key: "id" },
  meetingsHosted: {
    sql: `SELECT id, title, agenda, starts_at, duration_minutes, time_zone, provider, join_url, cancelled_at, created_at,
            (SELECT group_concat(email, ', ') FROM meeting_attendees WHERE meeting_id = meetings.id) AS attendees
          FROM meetings WHERE host_id = ?1 AND id > ?2`,
    key: "id",
  },
  meetingsInvited: { sql: "SELECT meeting_id AS id FROM meeting_participants WHERE user_id = ?1 AND meeting_id > ?2", key: "id" },
  notifications: {
    sql: "SELECT id, kind, event, subject_id, actor_id, created_at, read_at FROM notifications WHERE user_id = ?1 AND id > ?2",
    key: "id",
  },
};

/** The document's text, piece by piece, read from D1 only as fast as the reader takes it. */
async function* pieces(db: D1Database, userId: number, now: number): AsyncGenerator<string> {
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
  for (const [name, { sql, key }] of Object.entries(LISTS)) {
    yield `,${JSON.stringify(name)}:[`;
    let after = -1;
    let first = true;
    for (;;) {
      const { results } = await db.prepare(`${sql} ORDER BY ${key} LIMIT ${PAGE}`).bind(userId, after).all<Record<string, number>>();
      if (results.length) yield (first ? "" : ",") + results.map((row) => JSON.stringify(row)).join(",");
      first &&= results.length === 0;
      if (results.length < PAGE) break;
      after = Number(results.at(-1)?.[key]);
    }
    yield "]";
  }
  yield "}";
}

/** The member's data as a JSON stream: {"exported_at":…,"account":{…},"profile":…,"tags":[…],…}. */
export function exportData(db: D1Database, userId: number, now: number): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  const source = pieces(db, userId, now);
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
