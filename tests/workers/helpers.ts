import { env } from "cloudflare:workers";
import type { Caller } from "~/.server/accounts/accounts";
import type { ContentItem } from "~/.server/content/content";
import { textShard } from "~/.server/databases";
import { postedOf } from "~/.server/http/body";
import { readVerification } from "~/.server/members/verification-form";
import { conversationRoom } from "~/.server/messaging/live";
import { Refused } from "~/.server/refused";
import type { VerificationKind } from "~/lib/choices";
import { orcidCheck } from "~/lib/identifiers";
import { multipart } from "../fixtures/files";

/** A caller with its own client address and a clock the test controls; mail is awaited by `settle`. */
export function testCaller(now = Date.UTC(2026, 10, 22, 9, 0)) {
  const pending: Promise<unknown>[] = [];
  const caller: Caller = {
    client: `test-${crypto.randomUUID()}`,
    now,
    language: "en",
    waitUntil: (promise) => pending.push(promise),
  };
  return { caller, settle: () => Promise.all(pending.splice(0)) };
}

/** An ORCID iD no other test holds (random digits, a valid check character). */
export function newOrcid(): string {
  const digits = Array.from(crypto.getRandomValues(new Uint8Array(15)), (n) => String(n % 10)).join("");
  return `${digits}${orcidCheck(digits)}`.match(/.{4}/g)?.join("-") ?? "";
}

export const uniqueEmail = (prefix = "member") => `${prefix}-${crypto.randomUUID().slice(0, 8)}@test.example`;

export async function outboxFor(email: string) {
  const { results } = await env.DB.prepare("SELECT subject, body FROM mail_outbox WHERE to_email = ? ORDER BY id").bind(email).all<{
    subject: string;
    body: string;
  }>();
  return results;
}

export async function mailedCode(email: string): Promise<string> {
  const mails = await outboxFor(email);
  const code = /\b(\d{6})\b/.exec(mails.at(-1)?.body ?? "")?.[1];
  if (!code) throw new Error(`no code mailed to ${email}`);
  return code;
}

/** A member straight in D1 (no password that works), for tests about what members do. */
export async function newMember(nickName = "M", accountType: 1 | 2 = 1, organisation: string | null = null) {
  const row = await env.DB.prepare(
    "INSERT INTO users (email, password_hash, account_type, kind, nick_name, organisation, created_at) VALUES (?, 'x', ?, 'individual', ?, ?, 0) RETURNING id",
  )
    .bind(uniqueEmail(), accountType, nickName, organisation)
    .first<{ id: number }>();
  if (!row) throw new Error("no member");
  return row.id;
}

export type ItemFields = Pick<
  ContentItem,
  "kind" | "sdg" | "title" | "summary" | "content" | "keywords" | "publicize" | "views" | "likes" | "created_at"
> & { text_shard: number };

/** A content row without stored files, for lists, search and counts. */
export async function newItem(owner: number, fields: Partial<ItemFields> = {}) {
  const f: ItemFields = {
    kind: "document",
    sdg: 1,
    title: "t",
    summary: "s",
    content: "c",
    keywords: "k",
    publicize: 1,
    views: 0,
    likes: 0,
    created_at: 1,
    // Items take the text shards in turn, as uploads spread over them (decision 0045).
    text_shard: (made++ % TEXT_SHARDS) + 1,
    ...fields,
  };
  const row = await env.DB.prepare(
    `INSERT INTO content (owner_id, kind, sdg, title, summary, content, keywords, publicize, file_key, file_size, file_type, thumbnail_key, thumbnail_type, views, likes, created_at, updated_at, text_shard)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, 1, 'application/pdf', 't', 'image/png', ?, ?, ?, ?, ?) RETURNING id`,
  )
    .bind(
      owner,
      f.kind,
      f.sdg,
      f.title,
      f.summary,
      f.content,
      f.keywords,
      f.publicize,
      `f-${crypto.randomUUID()}`,
      f.views,
      f.likes,
      f.created_at,
      f.created_at,
      f.text_shard,
    )
    .first<{ id: number }>();
  if (!row) throw new Error("no item");
  return row.id;
}

/** The local text shards (wrangler.toml binds three, so every search crosses several). */
export const TEXT_SHARDS = 3;
let made = 0;

/** The text shard an item's text and cues live in. */
export async function shardOf(id: number): Promise<D1Database> {
  return textShard(Number(await env.DB.prepare("SELECT text_shard FROM content WHERE id = ?").bind(id).first("text_shard")));
}

/** An item's text as the text job stores it, for its current file, in its shard, and done in the core. */
export async function putText(id: number, body: string, extractedAt = 1) {
  const fileKey = await env.DB.prepare("UPDATE content SET text_state = 'done' WHERE id = ? RETURNING file_key")
    .bind(id)
    .first<string>("file_key");
  await (await shardOf(id))
    .prepare("INSERT INTO document_text (content_id, file_key, body, pages, page_count, extracted_at) VALUES (?, ?, ?, 1, 1, ?)")
    .bind(id, fileKey, body, extractedAt)
    .run();
}

/**
 * Waits for background work (the queue delivers a moment later): polls until `check` answers a
 * truthy value. The deadline only stops a test that would otherwise hang; nothing here is a timing assertion.
 */
export async function until<T>(check: () => Promise<T>, deadlineMs = 25_000): Promise<NonNullable<T>> {
  const end = Date.now() + deadlineMs;
  for (;;) {
    const value = await check();
    if (value) return value as NonNullable<T>;
    if (Date.now() > end) throw new Error("The background work did not finish");
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** A page of a conversation's history from its room, as the pages read it. */
export const history = (conversationId: number, options: { before?: number; after?: number; limit?: number } = {}) =>
  conversationRoom(conversationId).history(conversationId, options);

/** Sends a message through the conversation's room, as every page and the API do. */
/** Sends as a member of the conversation (the test's own mistake when not): the stored message, or null when refused. */
export async function sendMessage(conversationId: number, senderId: number, body: string, clientId: string = crypto.randomUUID()) {
  const sent = await conversationRoom(conversationId).send(conversationId, senderId, { body, client_id: clientId });
  if (sent === "not-member") throw new Error(`member ${senderId} is not in conversation ${conversationId}`);
  return sent;
}

/** A verification's photos as the form posts them, read and stored as they arrive (verification-form.ts). */
export async function postedPhotos(kind: VerificationKind, files: Record<string, Uint8Array[]>) {
  const { body, contentType } = multipart(
    Object.entries(files).flatMap(([name, list]) =>
      list.map((bytes) => ({ name, filename: `${name}.png`, type: "image/png", body: bytes })),
    ),
  );
  const request = new Request("https://app.test/personal/verification", { method: "POST", body, headers: { "Content-Type": contentType } });
  const read = await readVerification(postedOf(request), kind);
  if (!read) throw new Error("the photos are over the body's limit");
  return read.photos;
}

/**
 * The SQL of every D1 statement run while `work` runs, in this isolate: the worker's code and its
 * Durable Objects, through the raw binding or a request's session, alone or in a batch.
 */
export async function d1Statements(work: () => Promise<unknown>): Promise<string[]> {
  type Statement = { statement: string };
  const seen: string[] = [];
  const restore: (() => void)[] = [];
  const wrap = (target: Record<string, unknown>, name: string, record: (self: unknown, args: unknown[]) => void) => {
    const original = target[name] as (...args: unknown[]) => unknown;
    target[name] = function (this: unknown, ...args: unknown[]) {
      record(this, args);
      return original.apply(this, args);
    };
    restore.push(() => {
      target[name] = original;
    });
  };
  const statements = new Set([env.DB.prepare("SELECT 1"), env.DB.withSession().prepare("SELECT 1")].map(Object.getPrototypeOf));
  const databases = new Set([env.DB, env.DB.withSession()].map(Object.getPrototypeOf));
  for (const proto of statements)
    for (const name of ["first", "all", "run", "raw"]) wrap(proto, name, (self) => seen.push((self as Statement).statement));
  // A database's batch hands the same statements to its session's: each is counted once.
  const batched = new WeakSet<object>();
  for (const proto of databases)
    wrap(proto, "batch", (_, [list]) => {
      for (const statement of list as Statement[]) {
        if (batched.has(statement)) continue;
        batched.add(statement);
        seen.push(statement.statement);
      }
    });
  try {
    await work();
  } finally {
    for (const undo of restore) undo();
  }
  return seen;
}

/** What a service call refused, as a plain value ({key, field, status}), or "not refused" when it answered. */
export async function refusalOf(work: Promise<unknown>) {
  try {
    await work;
    return "not refused" as const;
  } catch (error) {
    if (!(error instanceof Refused)) throw error;
    return { key: error.key, field: error.field, status: error.status };
  }
}

/** The key of what a service call refused, or null when it went through. */
export const refusedKey = async (work: Promise<unknown>) => {
  const refusal = await refusalOf(work);
  return refusal === "not refused" ? null : refusal.key;
};
