import { Buffer } from "node:buffer";
import { env } from "~/.server/bindings";
import { config } from "~/.server/config/config";
import { logEvent } from "~/.server/observability/log";
import { captionLang, type TranscriptCue } from "~/lib/captions";
import { AUTO_CAPTIONS_MAX_MB, CAPTION_CUE_MAX_CHARS, CAPTIONS_MAX_CUES } from "~/lib/limits";
import { cleanCueText } from "./caption-file";
import { saveCaptions } from "./captions";

// Automatic captions (docs/decisions/0043-captions.md): where the operator configured a speech-to-
// text model, a new video without captions is transcribed by Workers AI's Whisper in a queue job,
// and its segments become the video's captions in the language it heard, marked "automatic".

/** What Whisper (large-v3-turbo) answers on Workers AI, as far as captions need it. */
interface WhisperAnswer {
  transcription_info?: { language?: string };
  segments?: { start?: number; end?: number; text?: string }[];
}

/** The answer's segments as cues: member text, in order, empty ones dropped, within the file limits. */
export function whisperCues(answer: WhisperAnswer): TranscriptCue[] {
  return (answer.segments ?? [])
    .flatMap((segment) => {
      const text = [...cleanCueText(segment.text ?? "")].slice(0, CAPTION_CUE_MAX_CHARS).join("");
      const start = Math.round(Number(segment.start) * 1000);
      const end = Math.round(Number(segment.end) * 1000);
      return text && Number.isFinite(start) && Number.isFinite(end) && end >= start && start >= 0
        ? [{ start_ms: start, end_ms: end, text }]
        : [];
    })
    .sort((a, b) => a.start_ms - b.start_ms)
    .slice(0, CAPTIONS_MAX_CUES);
}

/**
 * The job: transcribes a video that still has no captions and stores the result, unless captions
 * arrived meanwhile (saveCaptions stores automatic ones only while there are none), so a job
 * delivered twice stores them once. A provider's failure is thrown for the queue to retry.
 */
export async function autoCaption(id: number, now = Date.now()) {
  const speech = config().speechToText;
  if (!speech || !env.AI) return;
  const item = await env.DB.prepare(
    "SELECT file_key, file_size FROM content c WHERE id = ? AND kind = 'video' AND NOT EXISTS (SELECT 1 FROM captions WHERE content_id = c.id)",
  )
    .bind(id)
    .first<{ file_key: string; file_size: number }>();
  if (!item) return;
  if (item.file_size > AUTO_CAPTIONS_MAX_MB * 1024 * 1024) {
    logEvent("info", "captions.auto_skipped", { id, reason: "too-large" });
    return;
  }
  const file = await env.FILES.get(item.file_key);
  if (!file) throw new Error(`video ${id}'s file is not in storage`);
  const audio = Buffer.from(await file.arrayBuffer()).toString("base64");
  const answer = (await env.AI.run(speech.model as "@cf/openai/whisper-large-v3-turbo", { audio })) as WhisperAnswer;
  const cues = whisperCues(answer);
  if (!cues.length) return;
  const lang = captionLang(answer.transcription_info?.language ?? "") ?? "und";
  await saveCaptions(id, lang, cues, "automatic", now);
}
