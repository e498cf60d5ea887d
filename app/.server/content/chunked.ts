import { env } from "~/.server/bindings";
import { newFileKey } from "~/.server/storage/files";
import { MAX_OPEN_UPLOADS } from "~/lib/limits";
import { MAX_FILE_BYTES, PART_SIZE, type StoredObject } from "./receive-upload";
import { looksLikeMp4, looksLikePdfHead, looksLikePdfTail } from "./sniff";
import { UploadRefused } from "./upload-errors";

// The resumable path: the browser sends the file in 8 MiB parts (the same part size as the streamed
// path), each checked and recorded, then completes it and posts the form with the upload's id.

interface UploadRow {
  id: string;
  owner_id: number;
  object_key: string;
  r2_upload_id: string;
  size: number;
  file_type: string | null;
  parts: string;
  completed: 0 | 1;
}

export const partCount = (size: number) => Math.max(1, Math.ceil(size / PART_SIZE));
const expectedLength = (size: number, n: number) => (n < partCount(size) ? PART_SIZE : size - (partCount(size) - 1) * PART_SIZE);
const partsOf = (row: UploadRow) => JSON.parse(row.parts) as Record<string, string>;

export async function startUpload(ownerId: number, size: number, now: number) {
  if (!Number.isInteger(size) || size <= 0) throw new UploadRefused("file", "empty");
  if (size > MAX_FILE_BYTES) throw new UploadRefused("file", "size");
  const key = newFileKey("files");
  const multipart = await env.FILES.createMultipartUpload(key);
  const id = crypto.randomUUID();
  // The cap is checked inside the insert, so uploads started at once cannot pass it together.
  const row = await env.DB.prepare(
    `INSERT INTO uploads (id, owner_id, object_key, r2_upload_id, size, created_at)
       SELECT ?, ?, ?, ?, ?, ? WHERE (SELECT count(*) FROM uploads WHERE owner_id = ?) < ? RETURNING id`,
  )
    .bind(id, ownerId, key, multipart.uploadId, size, now, ownerId, MAX_OPEN_UPLOADS)
    .first();
  if (!row) {
    await multipart.abort();
    throw new UploadRefused("file", "too-many");
  }
  return { id, size, part_size: PART_SIZE, parts: [] as number[], completed: false };
}

async function findUpload(id: string, ownerId: number) {
  const row = await env.DB.prepare("SELECT * FROM uploads WHERE id = ? AND owner_id = ?").bind(id, ownerId).first<UploadRow>();
  return row ?? null;
}

/** What is already there, for resuming: the part numbers received so far. */
export async function uploadStatus(id: string, ownerId: number) {
  const row = await findUpload(id, ownerId);
  if (!row) return null;
  return { id, size: row.size, part_size: PART_SIZE, parts: Object.keys(partsOf(row)).map(Number), completed: Boolean(row.completed) };
}

export async function abortUpload(id: string, ownerId: number) {
  const bucket = env.FILES;
  const row = await findUpload(id, ownerId);
  if (!row) return false;
  if (row.completed) await bucket.delete(row.object_key);
  else
    await bucket
      .resumeMultipartUpload(row.object_key, row.r2_upload_id)
      .abort()
      .catch(() => {});
  await env.DB.prepare("DELETE FROM uploads WHERE id = ?").bind(id).run();
  return true;
}

/** Stores part n (exactly 8 MiB, or the remainder for the last); the first part decides the type. */
export async function putPart(id: string, ownerId: number, n: number, body: ArrayBuffer) {
  const row = await findUpload(id, ownerId);
  if (!row || row.completed) return null;
  if (!Number.isInteger(n) || n < 1 || n > partCount(row.size) || body.byteLength !== expectedLength(row.size, n)) {
    throw new UploadRefused("file", "size");
  }
  let type = row.file_type;
  if (n === 1) {
    const head = new Uint8Array(body, 0, Math.min(body.byteLength, 4096));
    type = looksLikePdfHead(head) ? "application/pdf" : looksLikeMp4(head) ? "video/mp4" : null;
    if (!type) {
      await abortUpload(id, ownerId);
      throw new UploadRefused("file", "type");
    }
  }
  const part = await env.FILES.resumeMultipartUpload(row.object_key, row.r2_upload_id).uploadPart(n, body);
  await env.DB.prepare("UPDATE uploads SET parts = json_set(parts, ?, ?), file_type = COALESCE(?, file_type) WHERE id = ?")
    .bind(`$."${n}"`, part.etag, type, id)
    .run();
  return { part: n };
}

/** Joins the parts once all are in; a PDF must also end like one. */
export async function completeUpload(id: string, ownerId: number) {
  const bucket = env.FILES;
  const row = await findUpload(id, ownerId);
  if (!row) return null;
  if (row.completed) return { completed: true };
  const parts = partsOf(row);
  const missing = Array.from({ length: partCount(row.size) }, (_, i) => i + 1).filter((n) => !parts[n]);
  if (missing.length || !row.file_type) return { completed: false, missing };
  await bucket.resumeMultipartUpload(row.object_key, row.r2_upload_id).complete(
    Object.entries(parts)
      .map(([n, etag]) => ({ partNumber: Number(n), etag }))
      .sort((a, b) => a.partNumber - b.partNumber),
  );
  if (row.file_type === "application/pdf") {
    const tail = await bucket.get(row.object_key, { range: { suffix: 1024 } });
    if (!tail || !looksLikePdfTail(new Uint8Array(await tail.arrayBuffer()))) {
      await abortUpload(id, ownerId);
      throw new UploadRefused("file", "type");
    }
  }
  await env.DB.prepare("UPDATE uploads SET completed = 1 WHERE id = ?").bind(id).run();
  return { completed: true };
}

/** A completed upload of this member, as the stored file the form's content will point at. */
export async function completedUpload(id: string, ownerId: number): Promise<StoredObject | null> {
  const row = await findUpload(id, ownerId);
  if (!row?.completed || !row.file_type) return null;
  return { key: row.object_key, size: row.size, type: row.file_type };
}

/** Once the content exists, the upload's bookkeeping row goes (the object now belongs to the content). */
export async function releaseUpload(id: string) {
  await env.DB.prepare("DELETE FROM uploads WHERE id = ?").bind(id).run();
}
