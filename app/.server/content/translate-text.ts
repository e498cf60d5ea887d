import { env } from "~/.server/bindings";
import { config } from "~/.server/config/config";
import { SUMMARY_MAX, TITLE_MAX } from "~/lib/limits";
import { cleanCueText } from "./caption-file";

// Machine suggestions (decision 0050): where the operator configured a translation model, an item's
// title and abstract are translated in a queue job, and become a suggestion its owner accepts, edits
// or drops. Workers AI's m2m100 takes one text at a time and answers { translated_text }.

interface TranslationAnswer {
  translated_text?: string;
}

/** A machine's text as member text: one line for a title, within the limits, characters a form refuses dropped. */
const cleaned = (text: string, max: number, oneLine: boolean) =>
  [...cleanCueText(oneLine ? text.replace(/[\r\n\u2028\u2029]+/g, " ") : text)].slice(0, max).join("").trim();

/**
 * The job: translates the item's original title and abstract into `lang` while its suggestion is
 * still pending, and stores them as the suggestion. A job delivered twice, or one that finds the
 * owner's own text (written meanwhile), changes nothing; the model's failure is thrown for the
 * queue to retry, and the suggestion stays pending (its owner is told after a while and may ask again).
 */
export async function translateText(id: number, lang: "en" | "ja" | "zh", now = Date.now()) {
  const translation = config().translation;
  const ai = env.AI;
  if (!translation || !ai) return;
  const item = await env.DB.prepare(
    `SELECT c.title, c.summary, c.language FROM content c JOIN item_texts t ON t.content_id = c.id
       WHERE c.id = ? AND t.lang = ? AND t.source = 'machine' AND t.state = 'pending'`,
  )
    .bind(id, lang)
    .first<{ title: string; summary: string; language: string | null }>();
  if (!item) return;
  const source = item.language?.split("-")[0]?.toLowerCase() ?? "en";
  const translate = async (text: string) => {
    const answer = (await ai.run(translation.model as "@cf/meta/m2m100-1.2b", {
      text,
      source_lang: source,
      target_lang: lang,
    })) as TranslationAnswer;
    if (typeof answer?.translated_text !== "string") throw new Error("the translation model answered without translated_text");
    return answer.translated_text;
  };
  const title = cleaned(await translate(item.title), TITLE_MAX, true);
  const summary = cleaned(await translate(item.summary), SUMMARY_MAX, false);
  if (!title || !summary) throw new Error("the translation model answered an empty text");
  await env.DB.prepare(
    `UPDATE item_texts SET title = ?3, summary = ?4, state = 'suggested', updated_at = ?5
       WHERE content_id = ?1 AND lang = ?2 AND source = 'machine' AND state = 'pending'`,
  )
    .bind(id, lang, title, summary, now)
    .run();
}
