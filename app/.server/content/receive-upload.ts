import { Buffer } from "node:buffer";
import { getMultipartBoundary, type MultipartPart, parseMultipart } from "@mjackson/multipart-parser";
import { joinChunks } from "~/.server/http/body";
import { newFileKey } from "~/.server/storage/files";
import { MAX_THUMBNAIL_MB, MAX_THUMBNAIL_PIXELS, MAX_UPLOAD_MB } from "~/lib/limits";
import { inspectImage, looksLikeMp4, looksLikePdfHead, looksLikePdfTail } from "./sniff";

export const PART_SIZE = 8 * 1024 * 1024; // R2 multipart parts: all the same size but the last
export const MAX_FILE_BYTES = MAX_UPLOAD_MB * 1024 * 1024;
const MAX_THUMBNAIL_BYTES = MAX_THUMBNAIL_MB * 1024 * 1024;
const MAX_FIELD_BYTES = 64 * 1024;
const MAX_DRAIN_BYTES = 2 * MAX_FILE_BYTES; // past this the connection is simply dropped
const HEAD_BYTES = 4096; // enough for an ftyp box

export type RefusalReason = "type" | "size" | "empty" | "image-size" | "too-many";

export class UploadRefused extends Error {
  constructor(
    readonly field: "file" | "thumbnail" | "form",
    readonly reason: RefusalReason,
  ) {
    super(`${field}: ${reason}`);
  }
}

export interface StoredObject {
  key: string;
  size: number;
  type: string;
}

export interface ReceivedUpload {
  fields: Record<string, string>;
  file?: StoredObject;
  thumbnail?: StoredObject;
}

/**
 * Reads a multipart upload as it streams in: text fields are collected, the file goes to R2 in 8 MiB
 * parts (type judged by its first bytes and, for PDF, its last), the thumbnail is checked as PNG/JPG
 * with sane pixel sizes. At the first refusal reading stops, every object stored so far is removed
 * and the rest of the request is drained, so the client sees the answer instead of a reset.
 */
export async function receiveUpload(request: Request, bucket: R2Bucket): Promise<ReceivedUpload> {
  const boundary = getMultipartBoundary(request.headers.get("Content-Type") ?? "");
  if (!boundary || !request.body) throw new UploadRefused("form", "empty");
  const declared = Number(request.headers.get("Content-Length") ?? 0);
  if (declared > MAX_FILE_BYTES + MAX_THUMBNAIL_BYTES + 1024 * 1024) {
    await drain(request.body.getReader());
    throw new UploadRefused("file", "size");
  }

  const source = request.body.getReader();
  let stopped: Error | null = null;
  // The parser refuses any byte after the closing delimiter, yet browsers send a CRLF after it
  // (an epilogue, which RFC 2046 says to ignore); when that CRLF arrives in a chunk of its own the
  // whole upload would fail. So the parser is fed up to the closing delimiter and no further.
  const closing = new TextEncoder().encode(`\r\n--${boundary}--`);
  let carry: Uint8Array = new Uint8Array(0);
  let ended = false;
  const guarded = new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (stopped) return controller.error(stopped);
      if (ended) return controller.close();
      const { done, value } = await source.read();
      if (done) return controller.close();
      const end = closingEnd(carry, value, closing);
      if (end >= 0) {
        ended = true;
        controller.enqueue(value.subarray(0, end));
      } else {
        carry = keepTail(carry, value, closing.length - 1);
        controller.enqueue(value);
      }
    },
  });

  const received: ReceivedUpload = { fields: {} };
  try {
    await parseMultipart(guarded, { boundary, maxFileSize: MAX_FILE_BYTES + 1 }, async (part) => {
      try {
        await receivePart(part, bucket, received);
      } catch (error) {
        stopped = error instanceof Error ? error : new Error(String(error));
        throw error;
      }
    });
  } catch (error) {
    await removeStored(bucket, received);
    await drain(source);
    if (error instanceof UploadRefused) throw error;
    if (error instanceof Error && /exceeds maximum|max file size/i.test(error.message)) throw new UploadRefused("file", "size");
    throw error;
  }
  await drain(source); // the epilogue, if any
  return received;
}

/** Where the closing delimiter ends within `chunk`, given the bytes that came just before it; -1 if not there. */
function closingEnd(before: Uint8Array, chunk: Uint8Array, closing: Uint8Array): number {
  const junction = keepTail(before, chunk.subarray(0, closing.length - 1), before.length + closing.length - 1);
  const acrossJunction = Buffer.from(junction).indexOf(closing);
  if (acrossJunction >= 0) return acrossJunction + closing.length - before.length;
  const within = Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength).indexOf(closing);
  return within >= 0 ? within + closing.length : -1;
}

async function receivePart(part: MultipartPart, bucket: R2Bucket, received: ReceivedUpload) {
  const name = part.name ?? "";
  if (!part.isFile) {
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
  const key = newFileKey("thumbnails");
  await bucket.put(key, bytes, { httpMetadata: { contentType: image.type } });
  return { key, size: bytes.length, type: image.type };
}

async function readAll(body: ReadableStream<Uint8Array>, max: number, field: UploadRefused["field"]): Promise<Uint8Array> {
  const chunks: Uint8Array[] = [];
  let total = 0;
  const reader = body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.length;
    if (total > max) {
      await reader.cancel().catch(() => {});
      throw new UploadRefused(field, field === "form" ? "size" : "image-size");
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

async function drainBody(body: ReadableStream<Uint8Array>) {
  await drain(body.getReader());
}

async function drain(reader: ReadableStreamDefaultReader<Uint8Array>) {
  let total = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      total += value.length;
      if (total > MAX_DRAIN_BYTES) break;
    }
  } catch {
    // the body may already be errored or cancelled; nothing is kept either way
  }
}

export async function removeStored(bucket: R2Bucket, received: ReceivedUpload) {
  const keys = [received.file?.key, received.thumbnail?.key].filter((k): k is string => Boolean(k));
  if (keys.length) await bucket.delete(keys);
}
