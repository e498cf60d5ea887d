import type { Message } from "~/lib/shapes";

// One conversation's messages and read positions, in its Durable Object's own SQLite storage
// (docs/decisions/0028-messages-in-their-conversation.md). Every call is synchronous, so what one
// call writes is one transaction, and the object runs its calls one after another.

/**
 * Message ids are the conversation's id times this, plus the message's place in the conversation:
 * unique across conversations without asking anyone, increasing in the order stored, and the
 * conversation a reported message belongs to is its id divided by this. A conversation holds at most
 * this many messages less one; conversation ids stay below 2^31, inside JavaScript's exact integers.
 */
export const MESSAGE_ID_SPAN = 2 ** 22;
export const conversationOfMessage = (messageId: number) => Math.floor(messageId / MESSAGE_ID_SPAN);

const SCHEMA = `
  CREATE TABLE IF NOT EXISTS messages (
    id INTEGER PRIMARY KEY,
    sender_id INTEGER NOT NULL,
    client_id TEXT NOT NULL,
    body TEXT NOT NULL,
    created_at INTEGER NOT NULL,
    hidden_at INTEGER,
    -- The D1 id of a message moved from there (reports are re-pointed by it).
    moved_from INTEGER,
    UNIQUE (sender_id, client_id)
  );
  CREATE TABLE IF NOT EXISTS reads (user_id INTEGER PRIMARY KEY, last_read_id INTEGER NOT NULL);
  -- conversation, member_low, member_high, version (bumped on every change the inboxes show), moved.
  CREATE TABLE IF NOT EXISTS facts (key TEXT PRIMARY KEY, value INTEGER NOT NULL);
`;

const MESSAGE = "id, sender_id, client_id, body, created_at";

/** What a member's inbox keeps of a conversation; a newer version replaces an older one, never the reverse. */
export interface InboxEntry {
  version: number;
  unread: number;
  last_message: Pick<Message, "id" | "sender_id" | "body" | "created_at"> | null;
}

export type StoredMessage = {
  sender_id: number;
  body: string;
  created_at: number;
  hidden_at: number | null;
};

export type LegacyMessage = StoredMessage & {
  id: number;
  client_id: string;
};

export class RoomStore {
  constructor(private readonly sql: SqlStorage) {
    sql.exec(SCHEMA);
  }

  fact(key: string): number | null {
    return this.sql.exec<{ value: number }>("SELECT value FROM facts WHERE key = ?", key).toArray()[0]?.value ?? null;
  }

  setFact(key: string, value: number) {
    this.sql.exec("INSERT INTO facts (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value", key, value);
  }

  private changed() {
    this.sql.exec("INSERT INTO facts (key, value) VALUES ('version', 1) ON CONFLICT (key) DO UPDATE SET value = value + 1");
  }

  private shape(row: Omit<Message, "conversation_id">): Message {
    return { ...row, conversation_id: conversationOfMessage(row.id) };
  }

  /** The message this sender stored under this client id, if any. */
  find(senderId: number, clientId: string): Message | null {
    const row = this.sql
      .exec<Omit<Message, "conversation_id">>(`SELECT ${MESSAGE} FROM messages WHERE sender_id = ? AND client_id = ?`, senderId, clientId)
      .toArray()[0];
    return row ? this.shape(row) : null;
  }

  /** Stores a message after the newest; the sender has read everything up to it. Null when the conversation is full. */
  insert(conversationId: number, senderId: number, clientId: string, body: string, now: number): Message | null {
    const id = this.nextId(conversationId);
    if (id === null) return null;
    this.sql.exec(
      "INSERT INTO messages (id, sender_id, client_id, body, created_at) VALUES (?, ?, ?, ?, ?)",
      id,
      senderId,
      clientId,
      body,
      now,
    );
    this.advanceRead(senderId, id);
    this.changed();
    return { id, conversation_id: conversationId, sender_id: senderId, client_id: clientId, body, created_at: now };
  }

  private nextId(conversationId: number) {
    const base = conversationId * MESSAGE_ID_SPAN;
    const newest = this.sql.exec<{ id: number | null }>("SELECT max(id) AS id FROM messages").one().id ?? base;
    return newest + 1 < base + MESSAGE_ID_SPAN ? newest + 1 : null;
  }

  private advanceRead(userId: number, upTo: number) {
    const cursor = this.sql.exec(
      `INSERT INTO reads (user_id, last_read_id) VALUES (?1, ?2)
       ON CONFLICT (user_id) DO UPDATE SET last_read_id = excluded.last_read_id WHERE excluded.last_read_id > last_read_id`,
      userId,
      upTo,
    );
    return cursor.rowsWritten > 0;
  }

  /** A page of visible messages, oldest first: the newest ones, or those before / after an id. */
  page({ before, after, limit }: { before?: number; after?: number; limit: number }) {
    const size = Math.min(Math.max(limit, 1), 100);
    const rows =
      after !== undefined
        ? this.sql.exec<Omit<Message, "conversation_id">>(
            `SELECT ${MESSAGE} FROM messages WHERE id > ? AND hidden_at IS NULL ORDER BY id LIMIT ?`,
            after,
            size + 1,
          )
        : this.sql.exec<Omit<Message, "conversation_id">>(
            `SELECT ${MESSAGE} FROM messages WHERE id < ? AND hidden_at IS NULL ORDER BY id DESC LIMIT ?`,
            before ?? Number.MAX_SAFE_INTEGER,
            size + 1,
          );
    const found = rows.toArray().map((row) => this.shape(row));
    const page = found.slice(0, size);
    return { messages: after !== undefined ? page : page.reverse(), has_more: found.length > size };
  }

  /** Marks read up to `upTo` (default, and at most: the newest message); true when the position moved. */
  markRead(userId: number, upTo = Number.MAX_SAFE_INTEGER) {
    const newest = this.sql.exec<{ id: number | null }>("SELECT max(id) AS id FROM messages").one().id;
    if (newest === null || !this.advanceRead(userId, Math.min(upTo, newest))) return false;
    this.changed();
    return true;
  }

  /** The conversation as this member's inbox shows it. */
  entryFor(userId: number): InboxEntry {
    const unread = this.sql
      .exec<{ n: number }>(
        `SELECT count(*) AS n FROM messages
         WHERE id > coalesce((SELECT last_read_id FROM reads WHERE user_id = ?1), 0) AND sender_id <> ?1 AND hidden_at IS NULL`,
        userId,
      )
      .one().n;
    const last = this.sql
      .exec<NonNullable<InboxEntry["last_message"]>>(
        "SELECT id, sender_id, body, created_at FROM messages WHERE hidden_at IS NULL ORDER BY id DESC LIMIT 1",
      )
      .toArray()[0];
    return { version: this.fact("version") ?? 0, unread, last_message: last ?? null };
  }

  message(id: number): StoredMessage | null {
    return (
      this.sql.exec<StoredMessage>("SELECT sender_id, body, created_at, hidden_at FROM messages WHERE id = ?", id).toArray()[0] ?? null
    );
  }

  /** Hides (a time) or restores (null) a message; true when that changed anything. */
  setHidden(id: number, at: number | null) {
    const cursor =
      at === null
        ? this.sql.exec("UPDATE messages SET hidden_at = NULL WHERE id = ? AND hidden_at IS NOT NULL", id)
        : this.sql.exec("UPDATE messages SET hidden_at = ? WHERE id = ? AND hidden_at IS NULL", at, id);
    if (cursor.rowsWritten === 0) return false;
    this.changed();
    return true;
  }

  /** The member's own messages after an id, oldest first (for their data export). */
  sentBy(userId: number, after: number, limit: number) {
    return this.sql
      .exec<Pick<Message, "id" | "body" | "created_at">>(
        "SELECT id, body, created_at FROM messages WHERE sender_id = ? AND id > ? ORDER BY id LIMIT ?",
        userId,
        after,
        limit,
      )
      .toArray();
  }

  /**
   * Takes messages moved from D1, in their D1 order, after those already here; a message moved
   * before (same sender and client id) is skipped. Answers each D1 id's id here.
   */
  importMessages(conversationId: number, rows: readonly LegacyMessage[]): Map<number, number> {
    const ids = new Map<number, number>();
    for (const row of rows) {
      const known = this.sql
        .exec<{ id: number }>("SELECT id FROM messages WHERE sender_id = ? AND client_id = ?", row.sender_id, row.client_id)
        .toArray()[0];
      const id = known?.id ?? this.nextId(conversationId);
      if (id === null) break;
      if (!known) {
        this.sql.exec(
          "INSERT INTO messages (id, sender_id, client_id, body, created_at, hidden_at, moved_from) VALUES (?, ?, ?, ?, ?, ?, ?)",
          id,
          row.sender_id,
          row.client_id,
          row.body,
          row.created_at,
          row.hidden_at,
          row.id,
        );
      }
      ids.set(row.id, id);
    }
    if (rows.length > 0) this.changed();
    return ids;
  }

  /** A member's D1 read position, as a position here: up to the newest moved message at or before it. */
  importRead(userId: number, legacyLastRead: number) {
    const upTo = this.sql.exec<{ id: number | null }>("SELECT max(id) AS id FROM messages WHERE moved_from <= ?", legacyLastRead).one().id;
    if (upTo !== null) this.advanceRead(userId, upTo);
  }
}
