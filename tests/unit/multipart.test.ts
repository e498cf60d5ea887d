import { describe, expect, it } from "vitest";
import { MultipartError, type MultipartPart, readMultipart } from "~/.server/http/multipart";

/** A form as a browser or fetch encodes it (undici's own multipart encoder, not ours). */
async function encoded(form: FormData) {
  const request = new Request("http://x/", { method: "POST", body: form });
  const type = request.headers.get("Content-Type") ?? "";
  return { bytes: new Uint8Array(await request.arrayBuffer()), boundary: /boundary=(.+)$/.exec(type)?.[1] ?? "" };
}

/** The bytes as a stream in chunks of the given sizes (cycled), counting what was read from it. */
function chunked(bytes: Uint8Array, sizes: number[]) {
  const counter = { pulled: 0 };
  let at = 0;
  let i = 0;
  const stream = new ReadableStream<Uint8Array>(
    {
      pull(controller) {
        if (at >= bytes.length) return controller.close();
        const size = sizes[i++ % sizes.length] ?? 1;
        const chunk = bytes.slice(at, at + size);
        at += chunk.length;
        counter.pulled = at;
        controller.enqueue(chunk);
      },
    },
    { highWaterMark: 0 },
  );
  return { stream, counter };
}

async function collect(part: MultipartPart) {
  const chunks: Uint8Array[] = [];
  for await (const chunk of part.body) chunks.push(chunk);
  return Buffer.concat(chunks);
}

describe("the multipart reader", () => {
  it("reads what fetch's own encoder wrote, however the bytes are split", async () => {
    // A file whose bytes contain CRLFs, dashes and most of a delimiter.
    const tricky = new TextEncoder().encode("%PDF\r\n--\r\n------formdata-undici\r\n\r\nend");
    const form = new FormData();
    form.append("title", "Clean water ☔ “quoted”");
    form.append("empty", "");
    form.append("file", new Blob([tricky]), 'a "b".pdf');
    form.append("thumbnail", new Blob([]), "");
    const { bytes, boundary } = await encoded(form);
    for (const sizes of [[bytes.length], [1], [7, 3, 64], [boundary.length + 3]]) {
      const parts: Array<{ name: string; filename?: string; body: string }> = [];
      await readMultipart(chunked(bytes, sizes).stream, boundary, async (part) => {
        parts.push({ name: part.name, filename: part.filename, body: (await collect(part)).toString("latin1") });
      });
      expect(parts, String(sizes)).toEqual([
        { name: "title", filename: undefined, body: Buffer.from("Clean water ☔ “quoted”").toString("latin1") },
        { name: "empty", filename: undefined, body: "" },
        { name: "file", filename: expect.stringContaining("b"), body: Buffer.from(tricky).toString("latin1") },
        // undici leaves an empty file name out (browsers send filename=""; see below).
        { name: "thumbnail", filename: undefined, body: "" },
      ]);
    }
  });

  it("reads the request no faster than a part's reader takes it", async () => {
    const size = 1024 * 1024;
    const form = new FormData();
    form.append("file", new Blob([new Uint8Array(size).fill(7)]), "big.pdf");
    const { bytes, boundary } = await encoded(form);
    const { stream, counter } = chunked(bytes, [16 * 1024]);
    let taken = 0;
    let ahead = 0;
    await readMultipart(stream, boundary, async (part) => {
      const reader = part.body.getReader();
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        taken += value.length;
        await new Promise((resolve) => setTimeout(resolve, 0)); // a slow consumer
        // Nothing was read from the request meanwhile beyond what could be the next delimiter.
        ahead = Math.max(ahead, counter.pulled - taken);
      }
    });
    expect(taken).toBe(size);
    expect(ahead).toBeLessThan(boundary.length + 200);
  });

  it("ignores an epilogue, refuses a form cut short or a part left unread", async () => {
    const form = new FormData();
    form.append("a", "1");
    const { bytes, boundary } = await encoded(form);
    const withEpilogue = Buffer.concat([bytes, Buffer.from("\r\n")]);
    const names: string[] = [];
    await readMultipart(chunked(withEpilogue, [bytes.length, 2]).stream, boundary, async (part) => {
      names.push(part.name);
      await collect(part);
    });
    expect(names).toEqual(["a"]);

    // An empty file input as browsers send it.
    const browser = Buffer.from(
      '--b\r\nContent-Disposition: form-data; name="file"; filename=""\r\nContent-Type: application/octet-stream\r\n\r\n\r\n--b--\r\n',
    );
    await readMultipart(chunked(browser, [3]).stream, "b", async (part) => {
      expect([part.name, part.filename, (await collect(part)).length]).toEqual(["file", "", 0]);
    });

    const cut = bytes.slice(0, bytes.length - boundary.length - 6);
    await expect(readMultipart(chunked(cut, [5]).stream, boundary, async (part) => void (await collect(part)))).rejects.toThrow(
      MultipartError,
    );
    await expect(readMultipart(chunked(bytes, [5]).stream, boundary, async () => {})).rejects.toThrow("not read to its end");
  });
});
