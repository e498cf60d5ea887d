import { describe, expect, it } from "vitest";
import { inflatesTooMuch } from "~/.server/content/pdf-bound";
import { readPdfText } from "~/.server/content/pdf-text";
import { PDF_FILE_MAX_INFLATED_MB, PDF_STREAM_MAX_INFLATED_MB, PDF_STREAM_MIN_COUNTED_KB } from "~/lib/limits";
import { makePdf } from "../../scripts/make-pdf.mjs";

// The bound on what a PDF inflates to is judged in workerd, where the queue job reads members' files:
// its DecompressionStream refuses data that goes on past the end of the zlib stream, and drops what
// it inflated before such an error, where Node's hands that over first.

const MB = 1024 * 1024;
const STREAM_LIMIT = PDF_STREAM_MAX_INFLATED_MB * MB;
const enc = new TextEncoder();

/** zlib data, as a writer's FlateDecode stream holds it. */
async function deflate(data: Uint8Array) {
  const stream = new Blob([data as Uint8Array<ArrayBuffer>]).stream().pipeThrough(new CompressionStream("deflate"));
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

/** `size` bytes of text operators. */
const operators = (size: number) => enc.encode("BT (x) Tj ET\n".repeat(Math.ceil(size / 13)).slice(0, size));

type Part = string | Uint8Array;

/** Object `n`, a stream ended as writers end one: the data, an end of line, endstream. */
function stream(n: number, dict: string, data: Uint8Array, { keyword = "stream\n", eol = "\n" } = {}): Part[] {
  return [`${n} 0 obj\n${dict}\n${keyword}`, data, `${eol}endstream\nendobj\n`];
}

function concat(parts: Part[]) {
  const bytes = parts.map((p) => (typeof p === "string" ? enc.encode(p) : p));
  const out = new Uint8Array(bytes.reduce((sum, b) => sum + b.length, 0));
  let at = 0;
  for (const b of bytes) {
    out.set(b, at);
    at += b.length;
  }
  return out;
}

/** Object `n`, an object stream holding the given objects (number, body), FlateDecode-compressed as writers write one. */
async function objectStream(n: number, objects: [number, Part][]) {
  const bodies = objects.map(([, body]) => concat([body, "\n"]));
  const offsets = bodies.map((_, i) => bodies.slice(0, i).reduce((sum, b) => sum + b.length, 0));
  const header = `${objects.map(([number], i) => `${number} ${offsets[i]}`).join(" ")}\n`;
  const data = await deflate(concat([header, ...bodies]));
  return stream(n, `<< /Type /ObjStm /N ${objects.length} /First ${header.length} /Filter /FlateDecode /Length ${data.length} >>`, data);
}

/** A file of the given objects (the bound is judged before pdf.js looks for a cross-reference table). */
const file = (...parts: Part[]) => concat(["%PDF-1.7\n", ...parts, "trailer\n<< /Root 1 0 R >>\n%%EOF\n"]);

/** makePdf's file with its pages' contents FlateDecode-compressed, as most writers write them. */
async function compressedPdf(pages: (string[] | null)[], options: Parameters<typeof makePdf>[1] = {}) {
  const contents: Uint8Array[] = [];
  makePdf(pages, {
    deflate: (bytes) => {
      contents.push(bytes);
      return bytes;
    },
  });
  const deflated = await Promise.all(contents.map(deflate));
  return makePdf(pages, { ...options, deflate: () => deflated.shift() ?? new Uint8Array() });
}

describe("the bound on what a PDF's streams inflate to, in the worker's runtime", () => {
  it("counts an ordinary file's flate streams to the byte, and reads the file", async () => {
    const exact = await deflate(operators(STREAM_LIMIT));
    const over = await deflate(operators(STREAM_LIMIT + 1));
    // Each end of line writers put before endstream, with a direct /Length and with an indirect one.
    for (const eol of ["\n", "\r\n", "\r"]) {
      for (const direct of [true, false]) {
        const of = (data: Uint8Array) =>
          file(
            ...stream(1, `<< /Filter /FlateDecode /Length ${direct ? data.length : "2 0 R"} >>`, data, { eol }),
            `2 0 obj\n${data.length}\nendobj\n`,
          );
        expect.soft(await inflatesTooMuch(of(exact)), `${JSON.stringify(eol)}, direct length ${direct}`).toBe(false);
        expect.soft(await inflatesTooMuch(of(over)), `${JSON.stringify(eol)}, direct length ${direct}`).toBe(true);
      }
    }
    // An image pdf.js reads only as an image is not inflated for text; the words of uncompressed content are not keywords.
    const image = file(...stream(1, "<< /Type /XObject /Subtype /Image /Width 1 /Height 1 /Filter /FlateDecode >>", over));
    expect(await inflatesTooMuch(image)).toBe(false);
    const words = file(...stream(1, "<< >>", enc.encode("BT (a data stream) Tj ET\nstream\n(stream\n) Tj\n")));
    expect(await inflatesTooMuch(words)).toBe(false);
    // A real file so written is read.
    const pdf = await compressedPdf([["Groundwater in the Sahel"], ["Second page"]]);
    expect(await inflatesTooMuch(pdf)).toBe(false);
    expect((await readPdfText(pdf)).pages.map((page) => page.trim())).toEqual(["Groundwater in the Sahel", "Second page"]);
  });

  it("judges a small file that inflates to megabytes of text operators broken, before pdf.js reads them", async () => {
    // Issue 30: 86 KB of FlateDecode holding 12 MB of operators on one page kept an instance busy for seconds.
    const bomb = await compressedPdf([Array.from({ length: 1_000_000 }, () => "x")]);
    expect(bomb.length).toBeLessThan(200 * 1024);
    expect(await inflatesTooMuch(bomb)).toBe(true);
    await expect(readPdfText(bomb)).rejects.toMatchObject({ note: "broken" });
  });

  it("says an encrypted file is encrypted, before counting streams it cannot read", async () => {
    const plain = await compressedPdf([["Wells"]]);
    const encrypted = enc.encode(new TextDecoder("latin1").decode(plain).replace("trailer\n<<", "trailer\n<< /Encrypt 9 0 R"));
    await expect(readPdfText(encrypted)).rejects.toMatchObject({ note: "encrypted" });
    await expect(readPdfText(plain)).resolves.toMatchObject({ pages: [expect.stringContaining("Wells")] });
  });

  it("refuses the bomb whatever way its stream is written", async () => {
    const bomb = await deflate(operators(STREAM_LIMIT + 1));
    const filter = "3 0 obj\n/FlateDecode\nendobj\n";
    const cases: Record<string, Part[]> = {
      "an indirect filter": [...stream(1, "<< /Filter 3 0 R >>", bomb), filter],
      "an indirect filter in an array": [...stream(1, "<< /Filter [3 0 R] >>", bomb), filter],
      "a dictionary nested two levels deep": stream(1, "<< /Filter /FlateDecode /DecodeParms << /X << /Y 1 >> >> >>", bomb),
      "stream and a lone CR": stream(1, "<< /Filter /FlateDecode >>", bomb, { keyword: "stream\r" }),
      "stream, spaces, then the end of line": stream(1, "<< /Filter /FlateDecode >>", bomb, { keyword: "stream  \n" }),
      "the filter's short key": stream(1, "<< /F /FlateDecode >>", bomb),
      "the filter's name written with # escapes": stream(1, "<< /Filter /Flat#65Decode >>", bomb),
      "a comment between the dictionary and stream": stream(1, "<< /Filter /FlateDecode >> % note", bomb),
      "a dictionary whose start cannot be found": stream(1, "/Filter /FlateDecode >>", bomb),
      "a dictionary read from inside a string": stream(1, "<< /Filter /FlateDecode /X (<< /Z\\() >>", bomb),
      "an object hidden in a comment": stream(1, "% 2 0 obj << /Filter /FlateDecode /X (\n<< /Z\\() >>", bomb),
      "an object hidden in a comment, its keyword against its number": stream(
        1,
        "% 2 0obj << /Filter /FlateDecode /X (\n<< /Z\\() >>",
        bomb,
      ),
      "a stream inside an image's data": stream(1, "<< /Subtype /Image >>", concat(stream(2, "<< /Filter /FlateDecode >>", bomb))),
      "a filter that expands but is not counted": stream(1, "<< /Filter /RunLengthDecode >>", Uint8Array.of(0x81, 0x78, 0x80)),
      "an object stream marked as an image": stream(1, "<< /Subtype /Image /N 1 /First 4 /Filter /FlateDecode >>", bomb),
      "a cross-reference stream marked as an image": stream(1, "<< /Subtype /Image /W [1 2 1] /Filter /FlateDecode >>", bomb),
    };
    for (const [name, parts] of Object.entries(cases)) expect.soft(await inflatesTooMuch(file(...parts)), name).toBe(true);
  });

  it("refuses streams that each stay within their bound but together pass the file's, however small", async () => {
    const part = await deflate(operators(STREAM_LIMIT));
    const streams = (n: number) => Array.from({ length: n }, (_, i) => stream(i + 1, "<< /Filter /FlateDecode >>", part)).flat();
    const fit = Math.floor(PDF_FILE_MAX_INFLATED_MB / PDF_STREAM_MAX_INFLATED_MB);
    expect(await inflatesTooMuch(file(...streams(fit)))).toBe(false);
    expect(await inflatesTooMuch(file(...streams(fit + 1)))).toBe(true);
    // However small, as counting one takes time whatever its size.
    const tiny = (n: number) => file(...Array.from({ length: n }, (_, i) => stream(i + 1, "<< >>", enc.encode("q Q"))).flat());
    const most = (PDF_FILE_MAX_INFLATED_MB * 1024) / PDF_STREAM_MIN_COUNTED_KB;
    expect(await inflatesTooMuch(tiny(most))).toBe(false);
    expect(await inflatesTooMuch(tiny(most + 1))).toBe(true);
  });

  it("counts a damaged flate stream as too much: what came out before the damage is not seen", async () => {
    const good = await deflate(operators(64 * 1024));
    const badChecksum = good.slice();
    badChecksum[good.length - 1] = (good.at(-1) ?? 0) ^ 0xff;
    const cases = {
      cut: good.subarray(0, good.length >> 1),
      "wrong checksum": badChecksum,
      "not zlib": enc.encode("not compressed at all"),
    };
    for (const [name, data] of Object.entries(cases)) {
      expect.soft(await inflatesTooMuch(file(...stream(1, `<< /Filter /FlateDecode /Length ${data.length} >>`, data))), name).toBe(true);
    }
  });

  it("counts a stream marked as an image where pdf.js reads it for text whatever its /Subtype", async () => {
    // pdf.js reads a page's contents, a font's program, a CMap or a Type3 glyph without looking at /Subtype.
    const bomb = stream(1, "<< /Subtype /Image /Width 1 /Height 1 /Filter /FlateDecode >>", await deflate(operators(STREAM_LIMIT + 1)));
    const object = (n: number, body: string) => `${n} 0 obj\n${body}\nendobj\n`;
    const small = stream(3, "<< >>", enc.encode("q Q"));
    const cases: Record<string, Part[]> = {
      "a page's /Contents": [object(2, "<< /Type /Page /Contents 1 0 R >>")],
      "one of a page's /Contents": [object(2, "<< /Type /Page /Contents [3 0 R 1 0 R] >>"), ...small],
      "a page's /Contents by reference to an array": [object(2, "<< /Type /Page /Contents 4 0 R >>"), object(4, "[ 1 0 R ]")],
      "/FontFile": [object(2, "<< /Type /FontDescriptor /FontFile 1 0 R >>")],
      "/FontFile2": [object(2, "<< /Type /FontDescriptor /FontFile2 1 0 R >>")],
      "/FontFile3": [object(2, "<< /Type /FontDescriptor /FontFile3 1 0 R >>")],
      "/ToUnicode": [object(2, "<< /Type /Font /Subtype /Type0 /ToUnicode 1 0 R >>")],
      "an /Encoding CMap": [object(2, "<< /Type /Font /Subtype /Type0 /Encoding 1 0 R >>")],
      "a CMap's /UseCMap": [object(2, "<< /Type /CMap /UseCMap 1 0 R >>")],
      "/CIDToGIDMap": [object(2, "<< /Type /Font /Subtype /CIDFontType2 /CIDToGIDMap 1 0 R >>")],
      "a Type3 glyph": [object(2, "<< /Type /Font /Subtype /Type3 /CharProcs << /a 3 0 R /b 1 0 R >> >>"), ...small],
      "a Type3 glyph by reference to its dictionary": [object(2, "<< /Subtype /Type3 /CharProcs 4 0 R >>"), object(4, "<< /a 1 0 R >>")],
      "the key written with # escapes": [object(2, "<< /Type /Page /Cont#65nts 1 0 R >>")],
      "a comment between the key and the reference": [object(2, "<< /Type /Page /Contents % the page\n1 0 R >>")],
      "a reference's number written as pdf.js reads an integer": [object(2, "<< /Type /Page /Contents 1.0 0 R >>")],
      "the page in an object stream": await objectStream(5, [[2, "<< /Type /Page /Contents 1 0 R >>"]]),
      "the array of /Contents in an object stream": [object(2, "<< /Contents 4 0 R >>"), ...(await objectStream(5, [[4, "[1 0 R]"]]))],
    };
    for (const [name, parts] of Object.entries(cases)) expect.soft(await inflatesTooMuch(file(...bomb, ...parts)), name).toBe(true);
    // Referenced only as an image, it is still not counted.
    const asImage = object(2, "<< /Type /Page /Contents 3 0 R /Resources << /XObject << /Im1 1 0 R >> >> >>");
    expect(await inflatesTooMuch(file(...bomb, asImage, ...small))).toBe(false);
  });

  it("counts the streams an object stream holds, and refuses one whose objects it cannot read", async () => {
    // pdf.js parses an object stream's objects, streams among them, and reads one where a reference sends it.
    const bomb = await deflate(operators(STREAM_LIMIT + 1));
    const inner = concat([`<< /Filter /FlateDecode /Length ${bomb.length} >>\nstream\n`, bomb, "\nendstream"]);
    const cases: Record<string, Part[]> = {
      "a bomb in an object stream": await objectStream(5, [[1, inner]]),
      "an object stream written in hex": stream(
        5,
        "<< /Type /ObjStm /N 1 /First 4 /Filter /ASCIIHexDecode >>",
        enc.encode("3120300A3C3C3E3E>"),
      ),
    };
    for (const [name, parts] of Object.entries(cases)) expect.soft(await inflatesTooMuch(file(...parts)), name).toBe(true);
  });

  it("skips a large image that pdf.js reads only as an image, and reads the file", async () => {
    // A page-sized scan: 1,500 × 1,500 gray pixels inflate past one stream's bound.
    const side = 1500;
    const pixels = new Uint8Array(side * side).map((_, i) => (i * 7) % 251);
    expect(pixels.length).toBeGreaterThan(STREAM_LIMIT);
    const flate = await deflate(pixels);
    const pdf = await compressedPdf([["Aquifer recharge"], null], { image: { width: side, height: side, flate } });
    expect(await inflatesTooMuch(pdf)).toBe(false);
    expect((await readPdfText(pdf)).pages.map((page) => page.trim())).toEqual(["Aquifer recharge", ""]);
    // So with the pages, their resources and a Type3 font's glyphs in an object stream.
    const image = stream(1, `<< /Type /XObject /Subtype /Image /Width ${side} /Height ${side} /Filter /FlateDecode >>`, flate);
    const held = await objectStream(5, [
      [2, "<< /Type /Page /Contents 3 0 R /Resources << /XObject << /Im1 1 0 R >> /Font << /F1 6 0 R >> >> >>"],
      [6, "<< /Type /Font /Subtype /Type3 /CharProcs 7 0 R >>"],
      [7, "<< /a 3 0 R >>"],
    ]);
    expect(await inflatesTooMuch(file(...image, ...held, ...stream(3, "<< >>", enc.encode("q Q"))))).toBe(false);
  });
});
