import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { longestTokenRun } from "~/.server/content/pdf-text";
import { PDF_RUN_MAX_BYTES, PDF_TEXT_MAX_MB } from "~/lib/limits";
import { makePdf } from "../../scripts/make-pdf.mjs";

// The queue job reads members' PDFs in an isolate of 128 MB, beside whatever else that isolate is
// answering. Each file here is read in a Node process held to the same 128 MB of heap: a reader that
// needs more is killed, as the isolate would be.

const run = promisify(execFile);

/** What readPdfText says of `bytes` (a file written first), in a process with a 128 MB heap. */
async function readIn128Mb(pdf: Uint8Array) {
  const script = `
    import { readPdfText } from "./app/.server/content/pdf-text.ts";
    const bytes = new Uint8Array(Buffer.from(await new Response(process.stdin).arrayBuffer()));
    try {
      const { pageCount } = await readPdfText(bytes);
      console.log("pages " + pageCount);
    } catch (error) {
      console.log(error.name === "Error" ? error.message : error.name);
    }`;
  const child = run(process.execPath, ["--max-old-space-size=128", "--input-type=module", "-e", script], { maxBuffer: 1 << 20 });
  child.child.stdin?.end(pdf);
  const { stdout } = await child;
  return stdout.trim();
}

/** The largest file read, all zeros between a PDF's first line and its last: no table where it says. */
function zerosPdf() {
  const bytes = new Uint8Array(PDF_TEXT_MAX_MB * 1024 * 1024);
  const enc = new TextEncoder();
  bytes.set(enc.encode("%PDF-1.4\n"));
  const tail = enc.encode("\nstartxref\n9\n%%EOF\n");
  bytes.set(tail, bytes.length - tail.length);
  return bytes;
}

describe("reading a PDF's text within an isolate's memory", () => {
  it("judges a broken file of the largest size broken instead of running out of memory", async () => {
    expect(await readIn128Mb(zerosPdf())).toBe("broken");
  }, 120_000);

  it("still reads a real file of the largest size", async () => {
    const pages = [["Groundwater in the Sahel"], ["Second page"]];
    const pdf = makePdf(pages, { padding: (PDF_TEXT_MAX_MB - 1) * 1024 * 1024 });
    expect(longestTokenRun(pdf)).toBeLessThan(PDF_RUN_MAX_BYTES);
    expect(await readIn128Mb(pdf)).toBe("pages 2");
  }, 120_000);
});
