// The parts of webvtt-parser (W3C's WebVTT validator's parser, no types of its own) that
// app/.server/content/caption-file.ts uses.
declare module "webvtt-parser" {
  export type CueNode =
    | { type: "text"; value: string }
    | { type: "timestamp"; value: number }
    | { type: "object"; name: string; children: CueNode[] };
  export interface ParsedCue {
    id: string;
    startTime: number;
    endTime: number;
    text: string;
    tree: { children: CueNode[] };
  }
  export class WebVTTParser {
    constructor(entities?: Record<string, string>);
    parse(input: string, mode?: "metadata" | "chapters"): { cues: ParsedCue[]; errors: { message: string; line: number; col?: number }[] };
  }
}
