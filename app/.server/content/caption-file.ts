import { type CueNode, WebVTTParser } from "webvtt-parser";
import { Refused } from "~/.server/refused";
import { shownForm } from "~/lib/caption-words";
import type { TranscriptCue } from "~/lib/captions";
import { CAPTION_CUE_MAX_CHARS, CAPTION_TAG_DEPTH_MAX, CAPTIONS_MAX_BYTES, CAPTIONS_MAX_CUES } from "~/lib/limits";
import { HIDDEN } from "~/lib/schemas/text";

// A WebVTT file in and out (docs/decisions/0043-captions.md). In: read by W3C's validator's parser,
// refused with its line when it does not parse; cue text is member text (NFC, markup stripped,
// nothing hidden). Out: written again from the stored cues, so a player gets what search indexed.

/** Cue text without markup: voice, class, bold… tags dropped, ruby's readings (rt) left out, entities decoded. */
function plainText(nodes: CueNode[]): string {
  return nodes
    .map((node) => (node.type === "text" ? node.value : node.type === "object" && node.name !== "rt" ? plainText(node.children) : ""))
    .join("");
}

/** NFC, without U+200B (the index's separator), lines trimmed, blank ones dropped (a blank line would end a cue written back). */
const tidy = (text: string) =>
  shownForm(text.normalize("NFC"))
    .replace(/\t/g, " ")
    .split("\n")
    .map((line) => line.trim())
    .filter(Boolean)
    .join("\n");

/**
 * The character references WebVTT's own writers use, with and without their semicolon (the parser's
 * default table lacks the semicolon forms, and leaves a ";" behind).
 */
const ENTITIES = Object.fromEntries(
  Object.entries({ amp: "&", lt: "<", gt: ">", lrm: "\u200e", rlm: "\u200f", nbsp: "\u00a0", quot: '"', apos: "'" }).flatMap(
    ([name, char]) => [
      [`&${name}`, char],
      [`&${name};`, char],
    ],
  ),
);

const refuse = (key: string, status = 400) => new Refused(key, { status, field: "captions" });
/** A parser's English reason as a translation value (no separators of our message format in it). */
const reasonValue = (message: string) => message.replace(/[|=]/g, " ").trim();

export const captionsTooLarge = () => refuse(`content.captionsTooLarge|max=${CAPTIONS_MAX_BYTES / 1024 / 1024}`, 413);

/**
 * The first line where cue tags nest deeper than CAPTION_TAG_DEPTH_MAX, or 0. The parser builds and
 * then walks its tree recursively: 5,000 nested tags overflow the stack, so they never reach it.
 * A blank line ends a cue, and with it every tag left open.
 */
function tooDeepAt(lines: string[]): number {
  let depth = 0;
  for (const [index, line] of lines.entries()) {
    if (!line.trim()) depth = 0;
    for (const tag of line.matchAll(/<(\/?)[a-z]/gi)) {
      depth = tag[1] ? Math.max(0, depth - 1) : depth + 1;
      if (depth > CAPTION_TAG_DEPTH_MAX) return index + 1;
    }
  }
  return 0;
}

/** The cues of a caption file, or a refusal saying why and where. */
export function readCaptionFile(bytes: Uint8Array): TranscriptCue[] {
  if (bytes.byteLength > CAPTIONS_MAX_BYTES) throw captionsTooLarge();
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    throw refuse("content.captionsNotText");
  }
  const lines = text.split(/\r\n|\r|\n/);
  const hidden = lines.findIndex((line) => HIDDEN.test(line));
  if (hidden >= 0) throw refuse(`content.captionsHidden|line=${hidden + 1}`);
  const deep = tooDeepAt(lines);
  if (deep) throw refuse(`content.captionsNested|line=${deep}|max=${CAPTION_TAG_DEPTH_MAX}`);
  let parsed: ReturnType<WebVTTParser["parse"]>;
  try {
    parsed = new WebVTTParser(ENTITIES).parse(text);
  } catch (error) {
    // Whatever else the parser cannot survive is still a file it could not read, not a crash.
    throw refuse(`content.captionsMalformed|line=1|reason=${reasonValue(error instanceof Error ? error.message : String(error))}`);
  }
  const { cues, errors } = parsed;
  const [error] = errors;
  if (error) throw refuse(`content.captionsMalformed|line=${error.line}|reason=${reasonValue(error.message)}`);
  if (cues.length > CAPTIONS_MAX_CUES) throw refuse(`content.captionsTooManyCues|max=${CAPTIONS_MAX_CUES}`, 413);
  // The timing line of each cue, in order, for a refusal that names one.
  const timingLines = lines.flatMap((line, index) => (line.includes("-->") ? [index + 1] : []));
  const read: TranscriptCue[] = [];
  cues.forEach((cue, index) => {
    const line = timingLines[index] ?? 0;
    const shown = tidy(plainText(cue.tree.children));
    // Character references (&#8238;) decode to what the raw lines could not hold.
    if (HIDDEN.test(shown)) throw refuse(`content.captionsHidden|line=${line}`);
    if ([...shown].length > CAPTION_CUE_MAX_CHARS) throw refuse(`content.captionsCueTooLong|line=${line}|max=${CAPTION_CUE_MAX_CHARS}`);
    if (shown) read.push({ start_ms: Math.round(cue.startTime * 1000), end_ms: Math.round(cue.endTime * 1000), text: shown });
  });
  if (!read.length) throw refuse("content.captionsEmpty");
  return read;
}

/** Text from elsewhere (a speech-to-text answer) made member text: hidden characters become spaces. */
export const cleanCueText = (text: string) => tidy(text.replace(new RegExp(HIDDEN.source, "g"), " "));

const stamp = (ms: number) => {
  const pad = (n: number, width = 2) => String(n).padStart(width, "0");
  return `${pad(Math.floor(ms / 3_600_000))}:${pad(Math.floor(ms / 60_000) % 60)}:${pad(Math.floor(ms / 1000) % 60)}.${pad(ms % 1000, 3)}`;
};
const escaped = (text: string) => text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");

/** A WebVTT file of the cues (their text as members read it). */
export function captionFile(cues: TranscriptCue[]): string {
  return `WEBVTT\n\n${cues.map((cue) => `${stamp(cue.start_ms)} --> ${stamp(cue.end_ms)}\n${escaped(cue.text)}\n`).join("\n")}`;
}
