// Cue text as the captions' index reads it (docs/decisions/0043-captions.md). No imports, so the
// demo data and the bench, which are Node scripts, store cues exactly as the app does.

/** Words of these scripts are not spaced: each character is a word to the caption index. */
const UNSPACED = /([\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}\u30fc])/gu;
/** The separator the index splits such text at (U+200B, never kept from what members send). */
const SPLIT = "\u200b";

/** The text as the index reads it: each CJK character its own word. */
export const indexForm = (text: string) => text.replace(UNSPACED, `${SPLIT}$1${SPLIT}`).replace(/\u200b{2,}/g, SPLIT);

/** The stored text as members read it. */
export const shownForm = (text: string) => text.replaceAll(SPLIT, "");
