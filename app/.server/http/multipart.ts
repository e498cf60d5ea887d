import { Buffer } from "node:buffer";

// A multipart/form-data reader that reads the request only as fast as its parts are consumed: each
// part's body is a stream whose reads pull bytes from the request, so a slow consumer (R2 taking an
// 8 MiB part) holds the network back instead of letting bytes queue in memory. Parts come one after
// another, as they do in the message. (docs/decisions/0027-upload-back-pressure.md)

export interface MultipartPart {
  name: string;
  /** Present for a file input, even an empty one (""). */
  filename: string | undefined;
  body: ReadableStream<Uint8Array>;
}

export class MultipartError extends Error {}

/** Headers of one part, at most. */
const MAX_HEADER_BYTES = 8 * 1024;

/**
 * Calls `onPart` for each part in order. The handler reads the part's body to its end (or throws);
 * the next part is read only then. Anything after the closing delimiter (an epilogue, which browsers
 * send as a CRLF) is ignored, as RFC 2046 says.
 */
export async function readMultipart(
  body: ReadableStream<Uint8Array>,
  boundary: string,
  onPart: (part: MultipartPart) => Promise<void>,
): Promise<void> {
  const reader = body.getReader();
  try {
    // The first delimiter has no CRLF before it unless there is a preamble: search from a virtual CRLF.
    await readParts(new Source(reader, Buffer.from("\r\n")), boundary, onPart);
  } finally {
    // The caller may then drain what is left, so the client reads the answer instead of a reset.
    reader.releaseLock();
  }
}

async function readParts(source: Source, boundary: string, onPart: (part: MultipartPart) => Promise<void>) {
  const delimiter = Buffer.from(`\r\n--${boundary}`);
  await source.skipPast(delimiter);
  for (;;) {
    const after = await source.take(2);
    if (after === "--") return; // the closing delimiter
    if (after !== "\r\n") throw new MultipartError("Malformed multipart delimiter");
    const headers = (await source.readUntil(Buffer.from("\r\n\r\n"), MAX_HEADER_BYTES)).toString("utf8");
    const disposition = headers.split("\r\n").find((line) => /^content-disposition:/i.test(line)) ?? "";
    const part = new PartBody(source, delimiter);
    await onPart({ name: parameter(disposition, "name") ?? "", filename: parameter(disposition, "filename"), body: part.stream });
    if (!part.ended) throw new MultipartError("A part was not read to its end");
  }
}

/** A parameter of a Content-Disposition header (quoted or not); undefined when absent. */
function parameter(header: string, key: string): string | undefined {
  const match = new RegExp(`;\\s*${key}=(?:"((?:[^"\\\\]|\\\\.)*)"|([^;\\s]*))`, "i").exec(header);
  if (!match) return undefined;
  return match[1] !== undefined ? match[1].replace(/\\(.)/g, "$1") : (match[2] ?? "");
}

/**
 * The request's bytes, read only when asked for, with what was read but not yet used kept in front.
 * Held bytes are never changed in place (each read makes a new buffer), so views handed out stay valid.
 */
class Source {
  private done = false;

  constructor(
    private readonly reader: ReadableStreamDefaultReader<Uint8Array>,
    private buffer: Buffer,
  ) {}

  get held() {
    return this.buffer;
  }

  /** Reads one more chunk; false at the end of the request. */
  async more(): Promise<boolean> {
    if (this.done) return false;
    const { done, value } = await this.reader.read();
    if (done) {
      this.done = true;
      return false;
    }
    this.buffer = this.buffer.length ? Buffer.concat([this.buffer, value]) : Buffer.from(value.buffer, value.byteOffset, value.byteLength);
    return true;
  }

  /** Removes and answers the first n held bytes. */
  shift(n: number): Buffer {
    const taken = this.buffer.subarray(0, n);
    this.buffer = this.buffer.subarray(n);
    return taken;
  }

  async take(n: number): Promise<string> {
    while (this.buffer.length < n) if (!(await this.more())) throw new MultipartError("Unexpected end of the form");
    return this.shift(n).toString("latin1");
  }

  /** Bytes up to `marker` (removed with it), refusing more than `max` before it. */
  async readUntil(marker: Buffer, max: number): Promise<Buffer> {
    for (;;) {
      const at = this.buffer.indexOf(marker);
      if (at >= 0) {
        const found = Buffer.from(this.shift(at));
        this.shift(marker.length);
        return found;
      }
      if (this.buffer.length > max + marker.length) throw new MultipartError("A part's headers are too long");
      if (!(await this.more())) throw new MultipartError("Unexpected end of the form");
    }
  }

  /** Discards everything up to and including `marker` (a preamble). */
  async skipPast(marker: Buffer) {
    for (;;) {
      const at = this.buffer.indexOf(marker);
      if (at >= 0) return void this.shift(at + marker.length);
      // Keep what could be the start of the marker.
      this.shift(Math.max(0, this.buffer.length - marker.length + 1));
      if (!(await this.more())) throw new MultipartError("No multipart delimiter");
    }
  }
}

/** One part's body: each read gives what lies before the next delimiter, reading the request only then. */
class PartBody {
  ended = false;
  readonly stream: ReadableStream<Uint8Array>;

  constructor(
    private readonly source: Source,
    private readonly delimiter: Buffer,
  ) {
    // highWaterMark 0: nothing is read ahead of the consumer's own reads.
    this.stream = new ReadableStream<Uint8Array>({ pull: (controller) => this.pull(controller) }, { highWaterMark: 0 });
  }

  private async pull(controller: ReadableStreamDefaultController<Uint8Array>) {
    for (;;) {
      const held = this.source.held;
      const at = held.indexOf(this.delimiter);
      if (at >= 0) {
        if (at > 0) controller.enqueue(this.source.shift(at));
        this.source.shift(this.delimiter.length);
        this.ended = true;
        controller.close();
        return;
      }
      // All but what could be the delimiter's start is surely this part's.
      const safe = held.length - (this.delimiter.length - 1);
      if (safe > 0) return controller.enqueue(this.source.shift(safe));
      if (!(await this.source.more())) return controller.error(new MultipartError("Unexpected end of the form"));
    }
  }
}
