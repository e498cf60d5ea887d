// The quoting view (docs/decisions/0051): one page of the document drawn by pdf.js with its text
// layer, fetched when a member first opens it. Words selected there become the comment's quote; a
// comment's quote is found again in the page's text (app/lib/quotes.ts, as the server found it)
// and marked where it stands. pdf.js is the build the server reads text with, so both see the same text.
import { clockTime } from "../../lib/captions";
import { findQuote, quoteAt, type TextQuote } from "../../lib/quotes";

type PdfJs = typeof import("unpdf/pdfjs");
type Doc = Awaited<ReturnType<PdfJs["getDocument"]>["promise"]>;

export interface Picked extends TextQuote {
  page: number;
}

const commentForm = () => document.getElementById("comment-form") as HTMLFormElement | null;

/** The comment form's fields `values`, by name, where it has them. */
function fill(values: Record<string, string>) {
  const form = commentForm();
  for (const [name, value] of Object.entries(values)) {
    const field = form?.elements.namedItem(name);
    if (field instanceof HTMLInputElement || field instanceof HTMLTextAreaElement) field.value = value;
  }
}

/** Words picked in a page: the comment form's passage. */
const picked = ({ page, exact, prefix, suffix }: Picked) => fill({ page: String(page), quote: exact, prefix, suffix });

/**
 * The form's passage. A document's: the page its page field names, which turns the pages (the
 * fields work without it, should pdf.js not load). A video's: lines selected in the transcript are
 * its moment, from the first line's second to the next line's (the last line's is open).
 */
export function openForm(fields: HTMLElement) {
  if (fields.dataset.passage === "video") {
    document.addEventListener("mouseup", () => fill(momentSelected()));
    // Lines selected from now on are taken (tests wait for this).
    fields.dataset.ready = "";
    return;
  }
  const box = fields.querySelector<HTMLElement>("[data-passage-pages]");
  const field = commentForm()?.elements.namedItem("page");
  const src = fields.dataset.src;
  if (!box || !src || !(field instanceof HTMLInputElement)) return;
  const show = () => showPage(box, src, Number(field.value) || 1, null, picked).catch(() => box.replaceChildren());
  asView(box);
  field.addEventListener("change", show);
  void show();
}

/** A box that shows a page: it scrolls, so a keyboard can reach it to scroll it (axe's scrollable-region-focusable). */
function asView(box: HTMLElement) {
  box.className = "passage-view";
  box.tabIndex = 0;
}

/** The moment of the transcript's lines selected, as the form writes it; nothing when none is. */
function momentSelected(): Record<string, string> {
  const selection = window.getSelection();
  const line = (node: Node | null | undefined) =>
    (node instanceof Element ? node : node?.parentElement)?.closest<HTMLElement>("[data-testid=transcript] li");
  const lines = [line(selection?.anchorNode), line(selection?.focusNode)];
  if (selection?.isCollapsed || !lines[0] || !lines[1]) return {};
  const second = (at: Element | null | undefined) => at?.querySelector<HTMLElement>("a[data-t]")?.dataset.t;
  const [from, to] = lines.map((at) => Number(second(at))) as [number, number];
  const until = second((from <= to ? lines[1] : lines[0]).nextElementSibling);
  return { at: clockTime(Math.min(from, to)), until: until === undefined ? "" : clockTime(Number(until)) };
}

/** A comment's quote: its page under the comment, the words marked (again: hidden); the PDF at that page when it cannot be shown. */
export function openQuote(link: HTMLAnchorElement) {
  const quoted = link.closest("[data-testid=comment-quote]");
  if (!quoted) return;
  const open = quoted.nextElementSibling;
  if (open instanceof HTMLElement && open.dataset.quoteView !== undefined) return open.remove();
  const box = document.createElement("div");
  box.dataset.quoteView = "";
  asView(box);
  quoted.parentNode?.insertBefore(box, quoted.nextSibling);
  const { prefix = "", suffix = "" } = link.dataset;
  const exact = quoted.querySelector("q")?.textContent ?? "";
  showPage(box, link.href.split("#")[0] ?? "", Number(link.dataset.quotePage), { exact, prefix, suffix }, picked).catch(() =>
    location.assign(link.href),
  );
}

/**
 * The view's styles, pdf.js's text layer as its own viewer styles it among them: the page's words
 * over its drawing, invisible but selectable, a quote marked where it stands. Adopted when the view
 * first opens: a page's inlined CSS holds only what its markup uses (app/.server/web/critical-css.ts).
 */
const TEXT_LAYER_CSS = `.textLayer{position:absolute;text-align:initial;inset:0;overflow:clip;line-height:1;text-size-adjust:none;
forced-color-adjust:none;transform-origin:0 0;z-index:0;--min-font-size:1;
--text-scale-factor:calc(var(--total-scale-factor) * var(--min-font-size));--min-font-size-inv:calc(1 / var(--min-font-size))}
.textLayer :is(span,br){color:transparent;position:absolute;white-space:pre;cursor:text;transform-origin:0% 0%}
.textLayer>:not(.markedContent),.textLayer .markedContent span:not(.markedContent){z-index:1;--font-height:0;
font-size:calc(var(--text-scale-factor) * var(--font-height));--scale-x:1;--rotate:0deg;
transform:rotate(var(--rotate)) scaleX(var(--scale-x)) scale(var(--min-font-size-inv))}
.textLayer .markedContent{display:contents}
.textLayer ::selection{background:rgb(0 0 255 / .25)}
.textLayer mark{color:transparent;background:rgb(250 204 21 / .5)}
.passage-view{margin:.5rem 0;max-height:70vh;overflow:auto;border:1px solid #e2e8f0;border-radius:.25rem}
.passage-sheet{position:relative;margin:0 auto;background:#fff}
.passage-drawing{position:absolute;inset:0;width:100%;height:100%}`;

let styled = false;
function styleTextLayers() {
  if (styled) return;
  styled = true;
  const sheet = new CSSStyleSheet();
  sheet.replaceSync(TEXT_LAYER_CSS);
  document.adoptedStyleSheets = [...document.adoptedStyleSheets, sheet];
}

let pdfjs: Promise<PdfJs> | null = null;
const library = () => {
  pdfjs ??= import(/* @vite-ignore */ __PDFJS_URL__) as Promise<PdfJs>;
  return pdfjs;
};
const docs = new Map<string, Promise<Doc>>();

function documentAt(src: string): Promise<Doc> {
  let doc = docs.get(src);
  if (!doc) {
    doc = library().then((lib) => lib.getDocument({ url: src }).promise);
    // A failure (the network) is tried again at the next opening.
    doc.catch(() => docs.delete(src));
    docs.set(src, doc);
  }
  return doc;
}

/** The page's text as the server stores it (pdf-text.ts), and where each text span starts in it. */
function pageText(items: { str?: string; hasEOL?: boolean }[]) {
  let text = "";
  const starts: number[] = [];
  for (const item of items) {
    if (item.str === undefined) continue;
    starts.push(text.length);
    text += item.str + (item.hasEOL ? "\n" : "");
  }
  return { text, starts };
}

/** Wraps [from, to) of the span's own text in a <mark>. */
function mark(span: HTMLElement, from: number, to: number) {
  const node = span.firstChild;
  if (!node || node.nodeType !== Node.TEXT_NODE || from >= to) return;
  const range = document.createRange();
  range.setStart(node, from);
  range.setEnd(node, to);
  const marked = document.createElement("mark");
  marked.dataset.testid = "quote-highlight";
  range.surroundContents(marked);
}

/**
 * Draws page `page` of the PDF at `src` into `box` (its width), marking `quote` when given; a
 * selection of its words calls `onPick`. A page past the document's end shows its last.
 */
export async function showPage(
  box: HTMLElement,
  src: string,
  page: number,
  quote: TextQuote | null,
  onPick: (picked: Picked) => void,
): Promise<void> {
  styleTextLayers();
  const lib = await library();
  const doc = await documentAt(src);
  const number = Math.min(Math.max(1, page), doc.numPages);
  const pdfPage = await doc.getPage(number);
  const scale = Math.max(0.5, (box.clientWidth || 600) / pdfPage.getViewport({ scale: 1 }).width);
  const viewport = pdfPage.getViewport({ scale });
  const sheet = document.createElement("div");
  sheet.className = "passage-sheet";
  sheet.style.width = `${Math.floor(viewport.width)}px`;
  sheet.style.height = `${Math.floor(viewport.height)}px`;
  sheet.style.setProperty("--scale-factor", String(scale));
  sheet.style.setProperty("--user-unit", "1");
  sheet.style.setProperty("--total-scale-factor", String(scale));
  const canvas = document.createElement("canvas");
  const ratio = window.devicePixelRatio || 1;
  canvas.width = Math.floor(viewport.width * ratio);
  canvas.height = Math.floor(viewport.height * ratio);
  canvas.className = "passage-drawing";
  const layer = document.createElement("div");
  layer.className = "textLayer";
  layer.dataset.testid = "text-layer";
  sheet.appendChild(canvas);
  sheet.appendChild(layer);
  box.replaceChildren(sheet);
  const context = canvas.getContext("2d");
  const content = await pdfPage.getTextContent();
  const { text, starts } = pageText(content.items as { str?: string; hasEOL?: boolean }[]);
  const textLayer = new lib.TextLayer({ textContentSource: content, container: layer, viewport });
  await Promise.all([
    textLayer.render(),
    context
      ? pdfPage.render({ canvas, canvasContext: context, viewport, transform: ratio === 1 ? undefined : [ratio, 0, 0, ratio, 0, 0] })
          .promise
      : null,
  ]);
  const spans = textLayer.textDivs;
  const found = quote && findQuote(text, quote.exact, quote.prefix, quote.suffix);
  if (found) {
    // Each span's part of the quote, from the last span first (splitting a span moves none before it).
    for (let i = spans.length - 1; i >= 0; i--) {
      const start = starts[i] ?? 0;
      const span = spans[i];
      const length = span?.textContent?.length ?? 0;
      if (span && start < found.end && start + length > found.start)
        mark(span, Math.max(0, found.start - start), Math.min(length, found.end - start));
    }
    layer.querySelector("mark")?.scrollIntoView({ block: "center" });
  }
  layer.addEventListener("mouseup", () => {
    const picked = selectionIn(layer, spans, starts, text);
    if (picked) onPick({ page: number, ...picked });
  });
  // Shown whole: its words can be selected (and tests wait for this).
  sheet.dataset.page = String(number);
}

/** Where a point of the selection is in the page's text, when it is in one of the spans. */
function offsetOf(spans: HTMLElement[], starts: number[], node: Node, offset: number): number | null {
  let holder: Node | null = node;
  while (holder && !spans.includes(holder as HTMLElement)) holder = holder.parentNode;
  const i = holder ? spans.indexOf(holder as HTMLElement) : -1;
  if (!holder || i < 0) return null;
  // Within the span, the characters before the point (marks may have split its text).
  const range = document.createRange();
  range.setStart(holder, 0);
  range.setEnd(node, offset);
  return (starts[i] ?? 0) + range.toString().length;
}

/** The member's selection in the layer as a quote with its context, if it holds words. */
function selectionIn(layer: HTMLElement, spans: HTMLElement[], starts: number[], text: string): TextQuote | null {
  const selection = window.getSelection();
  if (!selection || selection.isCollapsed || !selection.rangeCount) return null;
  const range = selection.getRangeAt(0);
  if (!layer.contains(range.commonAncestorContainer)) return null;
  const from = offsetOf(spans, starts, range.startContainer, range.startOffset);
  const to = offsetOf(spans, starts, range.endContainer, range.endOffset);
  // A selection ending between spans (on a line's break) is found by its words instead.
  const found = from !== null && to !== null && to > from ? { start: from, end: to } : findQuote(text, selection.toString());
  const quote = found && quoteAt(text, found.start, found.end);
  return quote?.exact ? quote : null;
}
