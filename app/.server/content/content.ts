import { env } from "~/.server/bindings";
import { NEW_ITEM_SHARD, newItemShardBinds } from "~/.server/databases";
import { followupJobs, recordFollowups } from "~/.server/followups/followups";
import { enqueue } from "~/.server/jobs/queue";
import { describeError, logEvent } from "~/.server/observability/log";
import { madeOnce } from "~/.server/once";
import { awardPoints } from "~/.server/ranking/ranking";
import { deleteQueued } from "~/.server/storage/files";
import type { TextNote, TextState } from "~/lib/document-text";
import type { Author, ListedAuthor } from "~/lib/identifiers";
import { DEFAULT_LICENSE } from "~/lib/licenses";
import type { ContentFields } from "~/lib/schemas/content";
import type { StoredObject } from "./receive-upload";
import { variantKeys } from "./thumbnail-variants";

export interface ContentItem {
  id: number;
  owner_id: number;
  owner_name: string;
  /** The owner's time zone: a reading is counted on the owner's day (decision 0039). */
  owner_zone: string;
  /** The owner's given and family names when their profile shows them (public), else null: citations name them so. */
  owner_given: string | null;
  owner_family: string | null;
  kind: "document" | "video";
  sdg: number;
  title: string;
  summary: string;
  content: string;
  keywords: string;
  publicize: 0 | 1;
  /** The owner lets anyone read its record, while the operator allows open records (decision 0049). */
  open_record: 0 | 1;
  /** The uploader is not an author: the work is cited by its co-authors only (decision 0049). */
  on_behalf: 0 | 1;
  /** The language its title and abstract are written in (BCP 47; decision 0050), null for items from before. */
  language: string | null;
  /** What search reads of its translations shown to readers: a JSON array of {lang, title, summary} (decision 0050). */
  texts: string;
  file_key: string;
  file_size: number;
  file_type: string;
  thumbnail_key: string;
  thumbnail_type: string;
  views: number;
  likes: number;
  created_at: number;
  updated_at: number;
  /** Set while a moderator keeps the item hidden (it is private to its owner meanwhile). */
  hidden_at: number | null;
  /** What publicize was when a moderator hid the item (restored when it is shown again). */
  hidden_publicize: 0 | 1 | null;
  /** The form's idempotency key: the same post twice makes one item. */
  client_key: string | null;
  /** The work's DOI, bare and in lower case. */
  doi: string | null;
  /** Co-authors beyond the uploader, in the order given. */
  authors: ListedAuthor[];
  /** The number of its latest version, whose file this row holds (decision 0042). */
  version: number;
  /** Its licence, an SPDX identifier (null: not specified, an item from before licences). */
  license: string | null;
  /** The uploader's ORCID iD, authenticated by signing in to ORCID. */
  owner_orcid: string | null;
  /** The year the work was published, when the uploader gave it. */
  published_year: number | null;
  /** The text extraction's state (documents only; docs/decisions/0030-document-text.md). */
  text_state: TextState["state"] | null;
  text_note: TextNote | null;
  text_queued_at: number | null;
  text_attempts: number;
  text_pages: number | null;
  text_page_count: number | null;
  /** Where its text and cues live, and the readers last copied from the statistics (decision 0045). */
  text_shard: number;
  views_synced: number;
}

/**
 * An item as pages and the API show it: storage keys, moderation and upload bookkeeping, the text
 * job's own state, where its bulk lives and the owner's names for citations stay inside (hidden_at tells the owner their
 * item is hidden; the owner reads the text's state through textStateOf).
 */
export function shownItem({
  file_key: _file,
  thumbnail_key: _thumbnail,
  client_key: _client,
  hidden_publicize: _publicize,
  text_state: _state,
  text_note: _note,
  text_queued_at: _queued,
  text_attempts: _attempts,
  text_pages: _pages,
  text_page_count: _pageCount,
  text_shard: _shard,
  views_synced: _synced,
  owner_given: _given,
  owner_family: _family,
  owner_zone: _zone,
  texts: _texts,
  ...item
}: ContentItem) {
  return item;
}

/** Documents must be PDFs and videos MP4s, whatever the form said. */
export const fileMatchesKind = (kind: ContentFields["kind"], type: string) =>
  (kind === "document" && type === "application/pdf") || (kind === "video" && type === "video/mp4");

/** Makes the item (once per form key or file); null when the owner's account is gone meanwhile. */
export async function createContent(
  ownerId: number,
  fields: ContentFields,
  file: StoredObject,
  thumbnail: StoredObject,
  now: number,
  clientKey?: string,
) {
  const db = env.DB;
  // Once per form key, and once per completed upload (its file): a repeat answers as the first did.
  const row = await madeOnce<{ id: number; file_key: string }>(
    db
      .prepare(
        `INSERT INTO content (owner_id, kind, sdg, title, summary, content, keywords, publicize, file_key, file_size, file_type,
          thumbnail_key, thumbnail_type, created_at, updated_at, client_key, doi, authors, published_year, license, text_state, text_queued_at, text_shard,
          open_record, on_behalf, language)
         SELECT ?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?14, ?15, ?16, ?17, ?18, ?19,
           CASE ?2 WHEN 'document' THEN 'pending' END, CASE ?2 WHEN 'document' THEN ?14 END, ${NEW_ITEM_SHARD(20, 21)}, ?22, ?23, ?24
         WHERE EXISTS (SELECT 1 FROM users WHERE id = ?1 AND deleted_at IS NULL)
         ON CONFLICT DO NOTHING RETURNING id`,
      )
      .bind(
        ownerId,
        fields.kind,
        fields.sdg,
        fields.title,
        fields.summary,
        fields.content,
        fields.keywords,
        Number(fields.publicize),
        file.key,
        file.size,
        file.type,
        thumbnail.key,
        thumbnail.type,
        now,
        clientKey ?? null,
        fields.doi,
        JSON.stringify(fields.authors),
        fields.year ?? null,
        fields.license ?? DEFAULT_LICENSE,
        ...newItemShardBinds(),
        fields.open_record === "1" ? 1 : 0,
        fields.on_behalf === "1" ? 1 : 0,
        fields.language ?? null,
      ),
    db
      .prepare("SELECT id, file_key FROM content WHERE owner_id = ? AND (file_key = ? OR client_key = ?)")
      .bind(ownerId, file.key, clientKey ?? null),
  );
  if (!row) {
    // The account was deleted while its upload was arriving: nothing of it is kept (the caller removes the files).
    const owner = await db.prepare("SELECT 1 FROM users WHERE id = ? AND deleted_at IS NULL").bind(ownerId).first();
    if (!owner) return null;
    throw new Error("file already belongs to another member's item");
  }
  if (!row.created) return { id: row.id, created: false, fileKey: row.file_key };
  await awardPoints(ownerId, "upload", now);
  return { id: row.id, created: true, fileKey: file.key };
}

/** An item as `viewerId` may see it: private items exist only for their owner (else null, a 404). */
export async function findContent(id: number, viewerId: number | null): Promise<ContentItem | null> {
  const [item] = await contentWhere("c.id = ?", id);
  return item && (item.publicize || item.owner_id === viewerId) ? item : null;
}

/** The items `where` selects (on `c`, the content row), whoever may see them, with their owner's names and authors. */
export async function contentWhere(where: string, ...values: unknown[]): Promise<ContentItem[]> {
  const { results } = await env.DB.prepare(
    `SELECT c.*, u.nick_name AS owner_name, u.orcid AS owner_orcid, u.time_zone AS owner_zone,
         (SELECT json_group_array(a.orcid) FROM content_author_ids a JOIN users x ON x.orcid = a.orcid WHERE a.content_id = c.id) AS verified_orcids, nullif(trim(p.first_name || ' ' || coalesce(p.middle_name, '')), '') AS owner_given,
         nullif(trim(p.family_name), '') AS owner_family
       FROM content c JOIN users u ON u.id = c.owner_id LEFT JOIN profiles p ON p.user_id = c.owner_id AND p.public = 1 WHERE ${where}`,
  )
    .bind(...values)
    .all<Omit<ContentItem, "authors"> & { authors: string; verified_orcids: string }>();
  return results.map(({ verified_orcids, ...row }) => {
    const verified = new Set(JSON.parse(verified_orcids) as string[]);
    const authors = (JSON.parse(row.authors) as Author[]).map((a) => ({ ...a, verified: a.orcid !== null && verified.has(a.orcid) }));
    return { ...row, authors };
  });
}

/**
 * An item as `viewer` may see it, or, for a moderator, an item hidden after a report (to decide on
 * it, read-only): `moderating` says which.
 */
export async function findContentFor(id: number, viewer: { id: number; roles: string[] }) {
  const item = await findContent(id, viewer.id);
  if (item) return { item, moderating: false };
  if (!viewer.roles.includes("moderator")) return null;
  const owner = await env.DB.prepare("SELECT owner_id FROM content WHERE id = ? AND hidden_at IS NOT NULL")
    .bind(id)
    .first<number>("owner_id");
  const hidden = owner === null ? null : await findContent(id, owner);
  return hidden ? { item: hidden, moderating: true } : null;
}

/** Deletes an item of `ownerId` and its files; false when there is no such item of theirs. */
export async function deleteContent(id: number, ownerId: number): Promise<boolean> {
  const now = Date.now();
  // The row, the record of its files and of what the other databases hold of it in one batch; the
  // files and the follow-ups after it (the cron sweeps them if that stops).
  const [queued, followups, deleted] = await env.DB.batch([
    queueItemFiles("id = ?3 AND owner_id = ?4", now, id, ownerId),
    recordItemFollowups("id = ?2 AND owner_id = ?3", now, id, ownerId),
    env.DB.prepare("DELETE FROM content WHERE id = ? AND owner_id = ? RETURNING id").bind(id, ownerId),
  ]);
  if (!deleted?.results.length) return false;
  await deleteQueued(((queued?.results ?? []) as { key: string }[]).map((row) => row.key));
  await enqueue(followupJobs(followups)).catch((error) =>
    logEvent("error", "content.followups_not_queued", { id, error: describeError(error) }),
  );
  return true;
}

/**
 * Records the follow-ups of the items `where` selects (its placeholders from ?2), for the batch that
 * deletes them: their text and cues in their shard, their statistics (decision 0045).
 */
export const recordItemFollowups = (where: string, now: number, ...values: unknown[]) =>
  recordFollowups(
    `SELECT 'text:' || text_shard, id, ?1 FROM content WHERE ${where} UNION ALL SELECT 'stats', id, ?1 FROM content WHERE ${where}`,
    now,
    ...values,
  );

/**
 * Records for deletion every object of the items `where` selects (its placeholders from ?3), every
 * version's and each thumbnail's variants, as they are when the statement runs: in the batch that
 * deletes the rows, a version added after the caller last read them is not left behind in R2.
 * Answers the keys it recorded.
 */
export const queueItemFiles = (where: string, now: number, ...values: unknown[]) =>
  env.DB.prepare(
    `WITH items AS (SELECT id FROM content WHERE ${where}),
       files AS (SELECT file_key, thumbnail_key FROM content WHERE id IN items
                 UNION SELECT file_key, thumbnail_key FROM content_versions WHERE content_id IN items)
     INSERT OR IGNORE INTO object_deletions (key, queued_at)
     SELECT file_key, ?1 FROM files UNION SELECT thumbnail_key || s.value, ?1 FROM files, json_each(?2) s
     RETURNING key`,
  ).bind(now, JSON.stringify(["", ...variantKeys("")]), ...values);

/** The owner's edit of an item's metadata (the file, and so the kind, stay). False if not theirs. */
export async function updateContent(id: number, ownerId: number, fields: Omit<ContentFields, "kind">, now: number) {
  const result = await env.DB.prepare(
    `UPDATE content SET sdg = ?1, title = ?2, summary = ?3, content = ?4, keywords = ?5,
         publicize = CASE WHEN hidden_at IS NULL THEN ?6 ELSE 0 END,
         hidden_publicize = CASE WHEN hidden_at IS NULL THEN NULL ELSE ?6 END, updated_at = ?7, doi = ?10, authors = ?11,
         published_year = ?12, license = coalesce(?13, license), open_record = ?14, on_behalf = ?15,
         language = coalesce(?16, language)
       WHERE id = ?8 AND owner_id = ?9`,
  )
    .bind(
      fields.sdg,
      fields.title,
      fields.summary,
      fields.content,
      fields.keywords,
      Number(fields.publicize),
      now,
      id,
      ownerId,
      fields.doi,
      JSON.stringify(fields.authors),
      fields.year ?? null,
      fields.license ?? null,
      fields.open_record === "1" ? 1 : 0,
      fields.on_behalf === "1" ? 1 : 0,
      fields.language ?? null,
    )
    .run();
  return result.meta.changes > 0;
}
