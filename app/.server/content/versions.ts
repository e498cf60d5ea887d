import { env } from "~/.server/bindings";
import { followupJobs, recordFollowups } from "~/.server/followups/followups";
import { enqueue } from "~/.server/jobs/queue";
import { newItemJob } from "~/.server/notifications/new-items";
import { describeError, logEvent } from "~/.server/observability/log";
import { type Read, readOne } from "~/.server/reads";
import { Refused } from "~/.server/refused";
import { VERSIONS_MAX } from "~/lib/limits";
import type { VersionFields } from "~/lib/schemas/version";
import { fileMatchesKind } from "./content";
import type { StoredObject } from "./receive-upload";

// Versions of an item (docs/decisions/0042-versions-and-licences.md): the item keeps its identity;
// a new version is a new file (and, optionally, thumbnail, licence and DOI) with a note of what
// changed. The content row always holds the latest version's file, so pages, search and the text
// job read the latest without knowing about versions.

export interface Version {
  number: number;
  note: string;
  title: string;
  file_size: number;
  file_type: string;
  doi: string | null;
  license: string | null;
  created_at: number;
}

/** A version's own file, for serving it. */
export interface VersionFile extends Version {
  file_key: string;
  thumbnail_key: string;
  thumbnail_type: string;
}

const COLUMNS = "number, note, title, file_size, file_type, doi, license, created_at";

/** Every version of an item, newest first (at most VERSIONS_MAX); a page reads it beside its other reads. */
export const versionsRead = (contentId: number): Read<Version[]> => ({
  statements: [env.DB.prepare(`SELECT ${COLUMNS} FROM content_versions WHERE content_id = ? ORDER BY number DESC`).bind(contentId)],
  decode: ([found]) => (found?.results ?? []) as Version[],
});

export const listVersions = (contentId: number) => readOne(versionsRead(contentId));

/**
 * The version a request asks for by `?version=` when it is not the latest (null: the latest, which
 * the item's row holds); undefined when there is no such version (a 404).
 */
export async function askedVersion(item: { id: number; version: number }, asked: string | null): Promise<VersionFile | null | undefined> {
  if (asked === null || asked === "" || Number(asked) === item.version) return null;
  const number = Number(asked);
  if (!Number.isInteger(number) || number < 1 || number > item.version) return undefined;
  return (await findVersion(item.id, number)) ?? undefined;
}

/** The item as that version of it (its file, thumbnail, title and licence), for serving and citing. */
export const itemAtVersion = <T extends { file_key: string }>(item: T, version: VersionFile | null): T =>
  version
    ? {
        ...item,
        file_key: version.file_key,
        file_type: version.file_type,
        file_size: version.file_size,
        thumbnail_key: version.thumbnail_key,
        thumbnail_type: version.thumbnail_type,
      }
    : item;

export const findVersion = (contentId: number, number: number) =>
  env.DB.prepare(`SELECT ${COLUMNS}, file_key, thumbnail_key, thumbnail_type FROM content_versions WHERE content_id = ? AND number = ?`)
    .bind(contentId, number)
    .first<VersionFile>();

/**
 * Adds a version in one transaction: its number is the next one at the moment it is written (two
 * posts at once become n+1 and n+2), the same form key again answers the version it made, and an
 * item at VERSIONS_MAX takes no more. The item's row moves to it, and a document's text is read
 * again (its old text leaves search at once). Answers the number and whether it was made now;
 * the caller removes the stored files of a post that made nothing.
 */
export async function addVersion(
  contentId: number,
  ownerId: number,
  fields: VersionFields,
  file: StoredObject,
  thumbnail: StoredObject | undefined,
  now: number,
): Promise<{ number: number; created: boolean }> {
  const db = env.DB;
  const item = await db
    .prepare("SELECT kind FROM content WHERE id = ? AND owner_id = ?")
    .bind(contentId, ownerId)
    .first<{ kind: "document" | "video" }>();
  if (!item) throw new Refused("content.notFound", { status: 404 });
  if (!fileMatchesKind(item.kind, file.type)) throw new Refused("validation.fileMismatch", { field: "file" });
  const latest = "(SELECT max(number) FROM content_versions WHERE content_id = ?1)";
  const [inserted, , stale, repeat] = await db.batch([
    db
      .prepare(
        `INSERT INTO content_versions (content_id, number, note, title, file_key, file_size, file_type, thumbnail_key, thumbnail_type, doi, license, created_at, client_key)
         SELECT c.id, ${latest} + 1, ?3, c.title, ?4, ?5, ?6, coalesce(?7, c.thumbnail_key), coalesce(?8, c.thumbnail_type), ?9, coalesce(?10, c.license), ?11, ?12
         FROM content c WHERE c.id = ?1 AND c.owner_id = ?2 AND ${latest} < ?13
         ON CONFLICT DO NOTHING RETURNING number`,
      )
      .bind(
        contentId,
        ownerId,
        fields.note,
        file.key,
        file.size,
        file.type,
        thumbnail?.key ?? null,
        thumbnail?.type ?? null,
        fields.doi ?? null,
        fields.license ?? null,
        now,
        fields.client_key ?? null,
        VERSIONS_MAX,
      ),
    // The row follows the newest version (only when it does not yet: a repeat changes nothing).
    db
      .prepare(
        `UPDATE content SET (version, file_key, file_size, file_type, thumbnail_key, thumbnail_type, license) =
           (SELECT number, file_key, file_size, file_type, thumbnail_key, thumbnail_type, license FROM content_versions
            WHERE content_id = ?1 ORDER BY number DESC LIMIT 1),
           updated_at = ?2, text_state = CASE kind WHEN 'document' THEN 'pending' END, text_note = NULL, text_attempts = 0, text_pages = NULL, text_page_count = NULL,
           text_queued_at = CASE kind WHEN 'document' THEN ?2 END
         WHERE id = ?1 AND version < ${latest}`,
      )
      .bind(contentId, now),
    // The earlier version's text, in the item's shard, leaves search now (the core names the new file)
    // and the shard by the follow-up (decision 0045); the job reads the new file's.
    recordFollowups(
      "SELECT 'text:' || text_shard, id, ?1 FROM content WHERE id = ?2 AND kind = 'document' AND text_queued_at = ?1",
      now,
      contentId,
    ),
    db.prepare("SELECT number FROM content_versions WHERE content_id = ? AND client_key = ?").bind(contentId, fields.client_key ?? null),
  ]);
  const number = (inserted?.results[0] as { number: number } | undefined)?.number;
  if (number === undefined) {
    const made = (repeat?.results[0] as { number: number } | undefined)?.number;
    if (made !== undefined) return { number: made, created: false };
    throw new Refused(`validation.versionsFull|max=${VERSIONS_MAX}`, { status: 409 });
  }
  const jobs = [
    newItemJob(contentId, number),
    ...(item.kind === "document" ? [{ type: "document-text" as const, id: contentId }] : []),
    ...followupJobs(stale),
  ];
  // A send lost here: the cron sends the text job and the follow-up again; followers are not told twice.
  await enqueue(jobs).catch((error) => logEvent("error", "version.not_queued", { id: contentId, number, error: describeError(error) }));
  return { number, created: true };
}
