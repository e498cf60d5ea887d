import { env } from "~/.server/bindings";
import { translator } from "~/.server/i18n/translate";
import { Refused } from "~/.server/refused";
import { LANGUAGES } from "~/lib/i18n";
import { TAG_LIMITS } from "~/lib/limits";
import { DEFAULT_TAGS, type MembershipLevel, type ProfileTag } from "~/lib/profile-tags";

// Profile tags: at most TAG_LIMITS[level] per member, a repeat refused ('Repeat addition').

/** A member's tags in the order they were added (also read in the member page's batch). */
export const tagsStatement = (userId: number) =>
  env.DB.prepare("SELECT id, tag, custom FROM member_tags WHERE user_id = ? ORDER BY created_at, id").bind(userId);

export async function listTags(userId: number): Promise<ProfileTag[]> {
  return (await tagsStatement(userId).all<ProfileTag>()).results;
}

/** A default's name in any of the three languages (or its key) means that default; anything else is the member's own. */
function resolve(words: string): { tag: string; custom: 0 | 1 } {
  const wanted = words.toLocaleLowerCase();
  for (const key of DEFAULT_TAGS) {
    const names = [key, ...LANGUAGES.map((language) => translator(language)(`tags.${key}`))];
    if (names.some((name) => name.toLocaleLowerCase() === wanted)) return { tag: key, custom: 0 };
  }
  return { tag: words, custom: 1 };
}

/** Adds a tag; refused beside the field when it is there already or the level's limit is reached. */
export async function addTag(userId: number, level: MembershipLevel, words: string, now: number) {
  const db = env.DB;
  const { tag, custom } = resolve(words);
  const limit = TAG_LIMITS[level];
  // The count check and the insert are one statement, so two quick posts cannot pass the limit.
  const result = await db
    .prepare(
      `INSERT OR IGNORE INTO member_tags (user_id, tag, custom, created_at)
       SELECT ?1, ?2, ?3, ?4 WHERE (SELECT count(*) FROM member_tags WHERE user_id = ?1) < ?5`,
    )
    .bind(userId, tag, custom, now, limit)
    .run();
  if (result.meta.changes) return;
  const existing = await db.prepare("SELECT 1 FROM member_tags WHERE user_id = ? AND tag = ? COLLATE NOCASE").bind(userId, tag).first();
  throw new Refused(existing ? "validation.repeatAddition" : `validation.maxTags|max=${limit}`, { field: "tag" });
}

export async function removeTag(userId: number, id: number) {
  const result = await env.DB.prepare("DELETE FROM member_tags WHERE id = ? AND user_id = ?").bind(id, userId).run();
  return result.meta.changes > 0;
}
