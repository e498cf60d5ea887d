import { env } from "~/.server/bindings";
import { Refused } from "~/.server/refused";
import { MENTIONS_MAX } from "~/lib/limits";

// "@" followed by a member's name mentions them (docs/decisions/0040-calm-notifications.md). Names
// may hold spaces, so each "@" is read as the longest member's name the text goes on with (case
// aside); a name two members share is refused with the name, so the writer can tell them apart;
// an "@" followed by no member's name is plain text.

const NAME_MAX = 64;
/** Where a name may end: the text's end, a space or punctuation. */
const ENDS = /^$|^[\s.,;:!?)\]}"'、。，！？]/u;

// Names are found by equality and ranges on the NOCASE index, never LIKE: D1 refuses a LIKE pattern
// over 50 bytes, which a Japanese or Chinese sentence with no space after "@" soon is.

/** The text after each "@" that starts a word (up to NAME_MAX, or to the text's end). */
function mentionStarts(body: string) {
  return [...body.matchAll(/(^|[\s(（「"'])@/gu)].map((match) => {
    const from = (match.index ?? 0) + match[0].length;
    return body.slice(from, from + NAME_MAX + 1);
  });
}

/** Every start of `rest` that a name may be: where a space, punctuation or the text's end follows. */
const namesIn = (rest: string) =>
  Array.from({ length: Math.min(rest.length, NAME_MAX) }, (_, i) => rest.slice(0, i + 1)).filter(
    (name) => name.trim() === name && ENDS.test(rest.slice(name.length)),
  );

/** The members a comment mentions (at most MENTIONS_MAX), or a refusal naming what is ambiguous. */
export async function mentionedIn(body: string): Promise<number[]> {
  const starts = mentionStarts(body);
  const names = new Set(starts.flatMap(namesIn));
  if (names.size === 0) return [];
  const { results: found } = await env.DB.prepare(
    `SELECT id, nick_name FROM users WHERE nick_name COLLATE NOCASE IN (SELECT value FROM json_each(?1))
       AND deleted_at IS NULL AND suspended_reason IS NULL`,
  )
    .bind(JSON.stringify([...names]))
    .all<{ id: number; nick_name: string }>();
  const mentioned = new Set<number>();
  for (const rest of starts) {
    const lower = rest.toLocaleLowerCase();
    const fits = found.filter(
      (member) => lower.startsWith(member.nick_name.toLocaleLowerCase()) && ENDS.test(rest.slice(member.nick_name.length)),
    );
    const longest = Math.max(0, ...fits.map((member) => member.nick_name.length));
    const named = fits.filter((member) => member.nick_name.length === longest);
    if (named.length > 1)
      throw new Refused(`validation.mentionAmbiguous|name=${(named[0]?.nick_name ?? "").replace(/[|=]/g, "")}`, { field: "body" });
    if (named[0]) mentioned.add(named[0].id);
  }
  if (mentioned.size > MENTIONS_MAX) throw new Refused(`validation.mentionsTooMany|max=${MENTIONS_MAX}`, { field: "body" });
  return [...mentioned];
}

/** Members whose name starts with `prefix` (case aside), for the suggestions shown while typing a mention. */
export async function mentionSuggestions(prefix: string, limit = 8): Promise<{ id: number; nick_name: string }[]> {
  const text = prefix.trim().slice(0, NAME_MAX);
  if (!text) return [];
  const { results } = await env.DB.prepare(
    `SELECT id, nick_name FROM users WHERE nick_name COLLATE NOCASE >= ?1 AND nick_name COLLATE NOCASE < ?1 || char(1114111)
       AND deleted_at IS NULL AND suspended_reason IS NULL ORDER BY nick_name COLLATE NOCASE LIMIT ?2`,
  )
    .bind(text, limit)
    .all<{ id: number; nick_name: string }>();
  return results;
}
