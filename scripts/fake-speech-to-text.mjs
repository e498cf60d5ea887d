// A stand-in for Workers AI's speech-to-text model (@cf/openai/whisper-large-v3-turbo) and its
// translation model (@cf/meta/m2m100-1.2b), for the tests only (vitest.config.ts binds it as AI): it
// answers `run(model, input)` in each model's documented shape. The "speech" of a test video is a line
// `SPEECH:{json}` inside its bytes: {"language":"ja","segments":[[start, end, "text"], …]}; a video
// without one is silence. A translation is the text behind a label in the target language
// ("機械翻訳：…", "机器译文：…"), so a search in that language finds it; a text holding
// UNTRANSLATABLE makes the model fail, as a provider's outage would.

import { WorkerEntrypoint } from "cloudflare:workers";
import { Buffer } from "node:buffer";

const MODEL = "@cf/openai/whisper-large-v3-turbo";
const TRANSLATION = "@cf/meta/m2m100-1.2b";

export class FakeWhisper extends WorkerEntrypoint {
  async run(model, input) {
    if (model === TRANSLATION) return translate(input);
    if (model !== MODEL) throw new Error(`AiError: No such model ${model} or task`);
    if (typeof input?.audio !== "string" || !input.audio) throw new Error("AiError: Type mismatch of '/audio', 'string' not in 'array'");
    const bytes = Buffer.from(input.audio, "base64").toString("latin1");
    const at = bytes.indexOf("SPEECH:");
    const speech =
      at < 0
        ? { language: "en", segments: [] }
        : JSON.parse(Buffer.from(bytes.slice(at + 7, bytes.indexOf("\n", at)), "latin1").toString("utf8"));
    const segments = speech.segments.map(([start, end, text]) => ({
      start,
      end,
      text,
      temperature: 0,
      avg_logprob: -0.2,
      compression_ratio: 1.2,
      no_speech_prob: 0.01,
      words: text.split(/\s+/).map((word) => ({ word, start, end })),
    }));
    const stamp = (s) => new Date(s * 1000).toISOString().slice(11, 23);
    return {
      transcription_info: {
        language: speech.language,
        language_probability: 0.98,
        duration: segments.at(-1)?.end ?? 0,
        duration_after_vad: segments.at(-1)?.end ?? 0,
      },
      text: segments.map((s) => s.text).join(" "),
      word_count: segments.reduce((n, s) => n + s.words.length, 0),
      segments,
      vtt: `WEBVTT\n\n${segments.map((s) => `${stamp(s.start)} --> ${stamp(s.end)}\n${s.text}\n`).join("\n")}`,
    };
  }
}

function translate(input) {
  if (typeof input?.text !== "string" || !input.text)
    throw new Error("AiError: Type mismatch of '/text', must NOT have fewer than 1 characters");
  if (typeof input.target_lang !== "string") throw new Error("AiError: must have required property 'target_lang'");
  if (input.text.includes("UNTRANSLATABLE")) throw new Error("AiError: 3040: Capacity temporarily exceeded, please try again.");
  const label = { en: "Machine translation: ", ja: "機械翻訳：", zh: "机器译文：" }[input.target_lang] ?? `[${input.target_lang}] `;
  return { translated_text: `${label}${input.text}` };
}

export default { fetch: () => new Response("speech-to-text stand-in", { status: 404 }) };
