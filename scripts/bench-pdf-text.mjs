// Part of `npm run bench`: the PDF text reader the queue job runs (app/.server/content/pdf-text.ts),
// timed in a fresh Node process per file, with the process's peak memory above what it held before
// (the PDF's bytes included), so each figure is that one file's. Node runs the same V8 as workerd.
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { readPdfText } from "../app/.server/content/pdf-text.ts";
import { BENCH_WORDS } from "./generate-catalogue.mjs";
import { makePdf } from "./make-pdf.mjs";

const line = (p, l) => Array.from({ length: 12 }, (_, w) => BENCH_WORDS[(p * 31 + l * 7 + w * 13) % BENCH_WORDS.length]).join(" ");
const textPages = (n) => Array.from({ length: n }, (_, p) => Array.from({ length: 40 }, (_, l) => line(p, l)));

/** The files measured: text alone, then text with images' worth of bytes beside it. */
export const PDF_CASES = [
  ["all text, 60 pages", 60, 0],
  ["all text, 400 pages", 400, 0],
  ["100 pages of text + 10 MB", 100, 10],
  ["100 pages of text + 20 MB", 100, 20],
];

/** Each case in its own process: seconds, MB read, peak memory growth. */
export function pdfTextBenchmarks() {
  console.log("\nPDF text reading (the queue job's reader, pdf.js via unpdf, one fresh Node process per file)");
  const dir = mkdtempSync(join(tmpdir(), "pdf-text-"));
  for (const [label, pages, padding] of PDF_CASES) {
    const file = join(dir, "bench.pdf");
    writeFileSync(file, makePdf(textPages(pages), { padding: padding * 1024 * 1024 }));
    const out = execFileSync(process.execPath, ["scripts/bench-pdf-text.mjs", file], { encoding: "utf8" });
    const { mb, seconds, grewMb, read, chars } = JSON.parse(out);
    console.log(
      `  ${label.padEnd(27)} ${mb.toFixed(1).padStart(5)} MB: ${read} pages (${chars.toLocaleString("en")} characters) in ${seconds.toFixed(2)} s = ${(seconds / mb).toFixed(2)} s per MB; peak memory +${grewMb.toFixed(0)} MB = ${(grewMb / mb).toFixed(2)} MB per MB`,
    );
  }
  rmSync(dir, { recursive: true, force: true });
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const pdf = new Uint8Array(readFileSync(process.argv[2] ?? ""));
  const mb = pdf.length / 1024 / 1024;
  await import("unpdf");
  const before = process.memoryUsage().rss;
  const started = performance.now();
  const { pages: read } = await readPdfText(pdf);
  const seconds = (performance.now() - started) / 1000;
  const peak = process.resourceUsage().maxRSS * 1024;
  console.log(
    JSON.stringify({
      mb,
      seconds,
      grewMb: Math.max(0, peak - before) / 1024 / 1024,
      read: read.length,
      chars: read.reduce((n, page) => n + page.length, 0),
    }),
  );
}
