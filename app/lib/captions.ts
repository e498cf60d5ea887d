// What pages, forms and the server share about captions (issue 36, docs/decisions/0043-captions.md).

/** A BCP 47 language tag as a caption file is labelled: en, ja, zh, zh-Hant, pt-BR… */
export const CAPTION_LANG = /^[A-Za-z]{2,3}(-[A-Za-z0-9]{2,8}){0,3}$/;

/** The tag in its canonical case ("PT-br" → "pt-BR"), or null when it is not one. */
export function captionLang(tag: string): string | null {
  if (!CAPTION_LANG.test(tag)) return null;
  try {
    return Intl.getCanonicalLocales(tag)[0] ?? null;
  } catch {
    return null;
  }
}

/** The languages a form offers first (any other tag can be typed through the API). */
export const CAPTION_LANGUAGES = ["en", "ja", "zh"] as const;

/** Where a player reads a video's captions. */
export const captionFileUrl = (id: number, lang: string) => `/files/${id}/captions/${lang}.vtt`;

/** A second of a video as people write it: 0:03, 12:34, 1:02:03. */
export function clockTime(seconds: number): string {
  const whole = Math.floor(seconds);
  const [h, m, s] = [Math.floor(whole / 3600), Math.floor((whole % 3600) / 60), whole % 60];
  const pad = (n: number) => String(n).padStart(2, "0");
  return h ? `${h}:${pad(m)}:${pad(s)}` : `${m}:${pad(s)}`;
}

/** A caption set as pages and the API show it. */
export interface CaptionInfo {
  lang: string;
  source: "owner" | "automatic";
  cue_count: number;
  duration_ms: number;
  updated_at: number;
}

/** One line of a transcript: when it is said (ms) and what. */
export interface TranscriptCue {
  start_ms: number;
  end_ms: number;
  text: string;
}

/** A stored cue, as a page lists it. */
export type ShownCue = TranscriptCue & { id: number };

/** A language's name in the reader's language ("日本語", "Japanese"), or its tag when unknown. */
export function languageName(tag: string, reader: string): string {
  try {
    return new Intl.DisplayNames([reader], { type: "language" }).of(tag) ?? tag;
  } catch {
    return tag;
  }
}
