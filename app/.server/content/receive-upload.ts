import { env } from "~/.server/bindings";
import { drain, joinChunks, type Posted } from "~/.server/http/body";
import { MultipartError, type MultipartPart, readMultipart } from "~/.server/http/multipart";
import { inspectImage } from "~/.server/images/inspect";
import { withoutMetadata } from "~/.server/images/strip-metadata";
import type { Refused } from "~/.server/refused";
import { newFileKey } from "~/.server/storage/files";
import { CAPTIONS_MAX_BYTES, MAX_THUMBNAIL_MB, MAX_THUMBNAIL_PIXELS, MAX_UPLOAD_MB } from "~/lib/limits";
import { captionsTooLarge } from "./caption-file";
import { looksLikeMp4, looksLikePdfHead, looksLikePdfTail } from "./sniff";
import { UploadRefused } from "./upload-errors";

export const PART_SIZE = 8 * 1024 * 1024; // R2 multipart parts: all the same size but the last
export const MAX_FILE_BYTES = MAX_UPLOAD_MB * 1024 * 1024;
const MAX_THUMBNAIL_BYTES = MAX_THUMBNAIL_MB * 1024 * 1024;
const MAX_FIELD_BYTES = 64 * 1024;
const MAX_DRAIN_BYTES = 2 * MAX_FILE_BYTES; // past this the connection is simply dropped
const HEAD_BYTES = 4096; // enough for an ftyp box

export interface StoredObject {
  key: string;
  size: number;
  type: string;
}

export interface ReceivedUpload {
  fields: Record<string, string>;
  file?: StoredObject;
  thumbnail?: StoredObject;
  /** A video's caption file sent with it (decision 0043): small, so read whole, and read by its own parser later. */
  captions?: Uint8Array;
}

/**
 * Reads a multipart upload as it streams in, no faster than it is stored: text fields are collected,
 * the file goes to R2 in 8 MiB parts (type judged by its first bytes and, for PDF, its last), the
 * thumbnail is checked as PNG/JPG with sane pixel sizes. At the first refusal reading stops, every
 * object stored so far is removed and the rest of the request is drained, so the client sees the
 * answer instead of a reset.
 */
export async function receiveUpload({ body, contentType, declaredLength }: Posted): Promise<ReceivedUpload> {
  const boundary = /boundary=(?:"([^"]+)"|([^;\s]+))/i.exec(contentType);
  if (!boundary || !body) throw new UploadRefused("form", "empty");
  if (declaredLength > MAX_FILE_BYTES + MAX_THUMBNAIL_BYTES + 1024 * 1024) {
    await drain(body.getReader(), MAX_DRAIN_BYTES);
    throw new UploadRefused("file", "size");
  }
  const received: ReceivedUpload = { fields: {} };
  try {
    await readMultipart(body, boundary[1] ?? boundary[2] ?? "", (part) => receivePart(part, env.FILES, received));
  } catch (error) {
    await removeStored(received);
    if (error instanceof MultipartError) throw new UploadRefused("form", "empty");
    throw error;
  } finally {
    // What is left (the rest of a refused upload, or an epilogue) is read and dropped.
    await drain(body.getReader(), MAX_DRAIN_BYTES);
  }
  return received;
}

async function receivePart(part: MultipartPart, bucket: R2Bucket, received: ReceivedUpload) {
  const { name } = part;
  if (part.filename === undefined) {
    const bytes = await readAll(part.body, MAX_FIELD_BYTES, "form");
    received.fields[name] = new TextDecoder().decode(bytes);
    return;
  }
  if (name === "file") {
    if (!part.filename) return drainBody(part.body); // an empty file input
    received.file = await streamFile(part.body, bucket);
  } else if (name === "thumbnail") {
    if (!part.filename) return drainBody(part.body);
    received.thumbnail = await storeThumbnail(part.body, bucket);
  } else if (name === "captions") {
    if (!part.filename) return drainBody(part.body);
    received.captions = await readAll(part.body, CAPTIONS_MAX_BYTES, "form", () => captionsTooLarge());
  } else {
    await drainBody(part.body);
  }
}

async function streamFile(body: ReadableStream<Uint8Array>, bucket: R2Bucket): Promise<StoredObject> {
  const reader = body.getReader();
  let buffer = new Uint8Array(PART_SIZE);
  let filled = 0;
  let total = 0;
  let type: string | null = null;
  let tail: Uint8Array<ArrayBuffer> = new Uint8Array(0);
  const key = newFileKey("files");
  let upload: R2MultipartUpload | null = null;
  const parts: R2UploadedPart[] = [];
  const judge = (head: Uint8Array) => {
    type = looksLikePdfHead(head) ? "application/pdf" : looksLikeMp4(head) ? "video/mp4" : null;
    if (!type) throw new UploadRefused("file", "type");
  };
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      total += value.length;
      if (total > MAX_FILE_BYTES) throw new UploadRefused("file", "size");
      tail = keepTail(tail, value, 1024);
      let offset = 0;
      while (offset < value.length) {
        const n = Math.min(PART_SIZE - filled, value.length - offset);
        buffer.set(value.subarray(offset, offset + n), filled);
        filled += n;
        offset += n;
        if (!type && filled >= HEAD_BYTES) judge(buffer.subarray(0, filled));
        if (filled === PART_SIZE) {
          upload ??= await bucket.createMultipartUpload(key, { httpMetadata: { contentType: type ?? "application/octet-stream" } });
          parts.push(await upload.uploadPart(parts.length + 1, buffer));
          buffer = new Uint8Array(PART_SIZE);
          filled = 0;
        }
      }
    }
    if (total === 0) throw new UploadRefused("file", "empty");
    if (!type) judge(buffer.subarray(0, filled));
    if (type === "application/pdf" && !looksLikePdfTail(tail)) throw new UploadRefused("file", "type");
    const contentType = type ?? "application/octet-stream";
    if (!upload) {
      // Under one part: a single put of a known length.
      await bucket.put(key, buffer.subarray(0, filled), { httpMetadata: { contentType } });
    } else {
      if (filled > 0) parts.push(await upload.uploadPart(parts.length + 1, buffer.subarray(0, filled)));
      await upload.complete(parts);
    }
    return { key, size: total, type: contentType };
  } catch (error) {
    if (upload) await (upload as R2MultipartUpload).abort().catch(() => {});
    await reader.cancel().catch(() => {});
    throw error;
  }
}

async function storeThumbnail(body: ReadableStream<Uint8Array>, bucket: R2Bucket): Promise<StoredObject> {
  const bytes = await readAll(body, MAX_THUMBNAIL_BYTES, "thumbnail");
  if (bytes.length === 0) throw new UploadRefused("thumbnail", "empty");
  const image = inspectImage(bytes);
  if (!image) throw new UploadRefused("thumbnail", "type");
  if (image.width < 1 || image.height < 1 || image.width > MAX_THUMBNAIL_PIXELS || image.height > MAX_THUMBNAIL_PIXELS) {
    throw new UploadRefused("thumbnail", "image-size");
  }
  // Served as sent on the detail page: what a camera wrote beside the pixels (GPS, serials, comments) is left out.
  const kept = withoutMetadata(bytes, image.type);
  if (!kept) throw new UploadRefused("thumbnail", "type");
  const key = newFileKey("thumbnails");
  await bucket.put(key, kept, { httpMetadata: { contentType: image.type } });
  return { key, size: kept.length, type: image.type };
}

async function readAll(
  body: ReadableStream<Uint8Array>,
  max: number,
  field: UploadRefused["part"],
  tooLarge: () => Refused = () => new UploadRefused(field, field === "form" ? "size" : "image-size"),
): Promise<Uint8Array> {
  const chunks: Uint8Array[] = [];
  let total = 0;
  const reader = body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.length;
    if (total > max) {
      await reader.cancel().catch(() => {});
      throw tooLarge();
    }
    chunks.push(value);
  }
  return joinChunks(chunks, total);
}

function keepTail(tail: Uint8Array, chunk: Uint8Array, size: number): Uint8Array<ArrayBuffer> {
  if (chunk.length >= size) return chunk.slice(chunk.length - size);
  const joined = new Uint8Array(Math.min(size, tail.length + chunk.length));
  const fromTail = joined.length - chunk.length;
  joined.set(tail.subarray(tail.length - fromTail), 0);
  joined.set(chunk, fromTail);
  return joined;
}

/** Reads a part nobody keeps to its end; it may be no longer than a field. */
async function drainBody(body: ReadableStream<Uint8Array>) {
  await readAll(body, MAX_FIELD_BYTES, "form");
}

export async function removeStored(received: ReceivedUpload) {
  const keys = [received.file?.key, received.thumbnail?.key].filter((k): k is string => Boolean(k));
  if (keys.length) await env.FILES.delete(keys);
}
