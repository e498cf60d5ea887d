import { AVATAR_UPLOAD_MB, CAPTIONS_MAX_BYTES } from "~/lib/limits";

// Request bodies are read with a ceiling: what is over it is refused while it arrives, before
// anything is parsed or stored. The rest of a refused body is read and dropped (never kept), so the
// client gets the answer instead of a reset connection; past DRAIN_MAX the connection is cut.

const DRAIN_MAX = 110 * 1024 * 1024; // a little over the 100 MB Cloudflare accepts at all

/** The body as text, or null once it passes `max` bytes (the rest is not read). */
export async function readCapped(request: Request, max: number): Promise<string | null> {
  const bytes = await readCappedBytes(request, max);
  return bytes === null ? null : new TextDecoder().decode(bytes);
}

export async function readCappedBytes(request: Request, max: number): Promise<Uint8Array<ArrayBuffer> | null> {
  if (!request.body) return new Uint8Array();
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  let over = Number(request.headers.get("Content-Length") ?? 0) > max;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > max) over = true;
    if (over && size > DRAIN_MAX) {
      await reader.cancel();
      break;
    }
    if (!over) chunks.push(value);
  }
  return over ? null : joinChunks(chunks, size);
}

/**
 * A refusal given before the body is read (401, 403, 429): the body is read and dropped first (up to
 * DRAIN_MAX), so the client reads the answer instead of a reset connection.
 */
export async function afterDraining(request: Request, answer: Response): Promise<Response> {
  if (request.body && !request.bodyUsed) await drain(request.body.getReader());
  return answer;
}

/** Reads what is left of a body and drops it; past `max` bytes it stops and the connection is cut. */
export async function drain(reader: ReadableStreamDefaultReader<Uint8Array>, max = DRAIN_MAX) {
  let size = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      if (size > max) {
        await reader.cancel();
        break;
      }
    }
  } catch {
    // the body may already be errored or cancelled; nothing is kept either way
  }
}

/** Chunks read from a stream, as one array of `size` bytes. */
export function joinChunks(chunks: Uint8Array[], size: number): Uint8Array<ArrayBuffer> {
  const bytes = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return bytes;
}

/** Form posts and JSON bodies (not files: uploads stream with their own limits). */
export const BODY_MAX_BYTES = 256 * 1024;

/** Paths whose bodies are files, read by their own code under their own limits (uploads 100 MB, a verification 25 MB). */
const STREAMED = [
  // React Router posts a page's form with JavaScript to the same path plus ".data".
  /^\/personal\/verification(\.data)?$/,
  /^\/api\/verification$/,
  /^\/upload$/,
  /^\/uploads\/[^/]+\/parts\//,
  /^\/api\/uploads\/[^/]+\/parts\//,
  /^\/api\/contents$/,
  // Local builds only: the plain R2 put the benchmark compares uploads with.
  /^\/dev\/r2-put$/,
];

/**
 * Paths whose multipart posts carry a file (a new version, decision 0042) and stream like an
 * upload, while their other posts are forms bounded like any other.
 */
const STREAMED_WHEN_MULTIPART = [
  /^\/retrieval\/detail\/version$/,
  /^\/api\/contents\/\d+\/versions$/,
  // A caption file: its action reads it capped at its own limit, and answers an oversized one beside the field.
  /^\/retrieval\/detail\/captions$/,
];

/** Paths that take one small file with their form (an avatar), read whole under their own ceiling. */
const LARGER: [RegExp, number][] = [
  // React Router matches paths regardless of case and a trailing slash (posted with JavaScript as "/_.data").
  [/^\/personal\/Setting(\/?|\.data|\/_\.data)$/i, AVATAR_UPLOAD_MB * 1024 * 1024],
  [/^\/api\/settings\/avatar$/, AVATAR_UPLOAD_MB * 1024 * 1024],
  // A video's caption file, put as the body (decision 0043).
  [/^\/api\/contents\/\d+\/captions\/[\w-]+$/, CAPTIONS_MAX_BYTES],
];

/**
 * The request with its body read up to BODY_MAX_BYTES, or null when the body is larger. Bodies
 * without one (GET) and file uploads pass untouched.
 */
export async function boundedBody(request: Request): Promise<Request | null> {
  if (request.method === "GET" || request.method === "HEAD" || !request.body) return request;
  const path = new URL(request.url).pathname;
  if (STREAMED.some((pattern) => pattern.test(path))) return request;
  const multipart = request.headers.get("Content-Type")?.startsWith("multipart/form-data") ?? false;
  if (multipart && STREAMED_WHEN_MULTIPART.some((pattern) => pattern.test(path))) return request;
  const larger = LARGER.find(([pattern]) => pattern.test(path));
  const bytes = await readCappedBytes(request, larger ? larger[1] : BODY_MAX_BYTES);
  return bytes === null ? null : new Request(request, { body: bytes });
}

/** A posted body as the services read it (a streamed multipart): its stream, and what its headers say of it. */
export interface Posted {
  body: ReadableStream<Uint8Array> | null;
  /** The Content-Type header, with a multipart's boundary. */
  contentType: string;
  /** The Content-Length the client declared (0 when it did not say). */
  declaredLength: number;
}

/** What a request posted, for a service to read: the adapters hand it over, the services never see the Request. */
export const postedOf = (request: Request): Posted => ({
  body: request.body,
  contentType: request.headers.get("Content-Type") ?? "",
  declaredLength: Number(request.headers.get("Content-Length") ?? 0),
});
