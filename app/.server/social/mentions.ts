import { env } from "~/.server/bindings";
import { Refused } from "~/.server/refused";
import { MENTIONS_MAX } from "~/lib/limits";

// "@" followed by a member's name mentions them (docs/decisions/0040-calm-notifications.md). Names
// may hold spaces, so each "@" is read as the longest member's name the text goes on with (case
// aside); a name two members share is refused with the name, so the writer can tell them apart;
// an "@" followed by no member's name is plain text.

const NAME_MAX = 64;
const escapeLike = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);
/** Where a name may end: the text's end, a space or punctuation. */
const ENDS = /^$|^[\s.,;:!?)\]}"'、。，！？]/u;

/** The text after each "@" that starts a word, and its first word (for the lookup). */
function mentionStarts(body: string) {
  const starts: { rest: string; word: string }[] = [];
  for (const match of body.matchAll(/(^|[\s(（「"'])@/gu)) {
    const rest = body.slice((match.index ?? 0) + match[0].length, (match.index ?? 0) + match[0].length + NAME_MAX);
    const word = /^[^\s@]+/u.exec(rest)?.[0];
    if (word) starts.push({ rest, word });
  }
  return starts;
}

/** The members a comment mentions (at most MENTIONS_MAX), or a refusal naming what is ambiguous. */
export async function mentionedIn(body: string): Promise<number[]> {
  const starts = mentionStarts(body);
  if (starts.length === 0) return [];
  const db = env.DB;
  const found = await db.batch(
    starts.map(({ word }) =>
      db
        .prepare(
          `SELECT id, nick_name FROM users WHERE deleted_at IS NULL AND suspended_reason IS NULL
             AND (nick_name = ?1 COLLATE NOCASE OR nick_name LIKE ?2 ESCAPE '\\') LIMIT 50`,
        )
        .bind(word, `${escapeLike(word)} %`),
    ),
  );
  const mentioned = new Set<number>();
  starts.forEach(({ rest }, i) => {
    const lower = rest.toLocaleLowerCase();
    const fits = ((found[i]?.results ?? []) as { id: number; nick_name: string }[]).filter(
      (member) => lower.startsWith(member.nick_name.toLocaleLowerCase()) && ENDS.test(rest.slice(member.nick_name.length)),
    );
    const longest = Math.max(0, ...fits.map((member) => member.nick_name.length));
    const named = fits.filter((member) => member.nick_name.length === longest);
    if (named.length > 1)
      throw new Refused(`validation.mentionAmbiguous|name=${(named[0]?.nick_name ?? "").replace(/[|=]/g, "")}`, { field: "body" });
    if (named[0]) mentioned.add(named[0].id);
  });
  if (mentioned.size > MENTIONS_MAX) throw new Refused(`validation.mentionsTooMany|max=${MENTIONS_MAX}`, { field: "body" });
  return [...mentioned];
}

/** Members whose name starts with `prefix` (case aside), for the suggestions shown while typing a mention. */
export async function mentionSuggestions(prefix: string, limit = 8): Promise<{ id: number; nick_name: string }[]> {
  const text = prefix.trim().slice(0, NAME_MAX);
  if (!text) return [];
  const { results } = await env.DB.prepare(
    `SELECT id, nick_name FROM users WHERE deleted_at IS NULL AND suspended_reason IS NULL AND nick_name LIKE ? ESCAPE '\\'
       ORDER BY nick_name COLLATE NOCASE LIMIT ?`,
  )
    .bind(`${escapeLike(text)}%`, limit)
    .all<{ id: number; nick_name: string }>();
  return results;
}
