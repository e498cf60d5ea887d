import { env } from "~/.server/bindings";
import { config } from "~/.server/config/config";
import { base64url, hmac, signedUnder } from "~/.server/security/crypto";
import { isNotificationKind, type NotificationChannel, type NotificationKind } from "~/lib/notifications";
import { channelsOf, setChannels } from "./notifications";

// One-click unsubscribe for members (RFC 8058; docs/decisions/0040-calm-notifications.md): every
// mail that is not about the account's security carries a link for its member and topic (a kind,
// or a digest), signed with an HMAC under a key derived from the pepper, so it works without a
// session and cannot be made for another member or topic. Stopping a topic moves its kinds to "in
// the app only"; the page offers to put them back, with an undo signed for exactly the kinds that
// stop turned off, so an undo can turn on nothing else.

/** What a mail is about: one kind (a mail at once), or the daily or weekly digest. */
export type Topic = NotificationKind | "daily" | "weekly";

export const isTopic = (value: string): value is Topic => value === "daily" || value === "weekly" || isNotificationKind(value);

const mac = (secret: string, message: string) => hmac(`member-unsubscribe:${secret}`, message);

/** Whether `signature` is the MAC of `message` under the pepper or an older one. */
const signed = (message: string, signature: string) =>
  signedUnder(config().pepper.byId.values(), signature, (secret) => mac(secret, message));

/** The channel a topic's mail comes by: its digest, or mail at once for a kind. */
const channelOf = (topic: Topic): NotificationChannel => (topic === "daily" || topic === "weekly" ? topic : "mail");

/** What an undo's signature covers: the member, the topic and the kinds its stop turned off (never a link's `member:topic`). */
const undoMessage = (member: number, topic: Topic, kinds: readonly string[]) => `undo:${member}:${topic}:${[...kinds].sort().join(",")}`;

/** The link that stops this topic's mail for this member, on the site at `origin`. */
export async function unsubscribeUrl(origin: string, member: number, topic: Topic): Promise<string> {
  const query = new URLSearchParams({ m: String(member), k: topic, t: base64url(await mac(config().pepper.secret, `${member}:${topic}`)) });
  return `${origin}/notifications/unsubscribe?${query}`;
}

/** The RFC 8058 headers for a mail of this topic (its link in angle brackets, and the one-click post). */
export async function unsubscribeHeaders(origin: string, member: number, topic: Topic): Promise<Record<string, string>> {
  return { "List-Unsubscribe": `<${await unsubscribeUrl(origin, member, topic)}>`, "List-Unsubscribe-Post": "List-Unsubscribe=One-Click" };
}

/** The member and topic a link names, when its signature is theirs (under the pepper or an older one). */
export async function signedTopic(params: URLSearchParams | FormData): Promise<{ member: number; topic: Topic } | null> {
  const member = Number(params.get("m"));
  const topic = String(params.get("k") ?? "");
  if (!Number.isSafeInteger(member) || member <= 0 || !isTopic(topic)) return null;
  return (await signed(`${member}:${topic}`, String(params.get("t") ?? ""))) ? { member, topic } : null;
}

/** The kinds a topic's mail carries for this member now: the kind itself if mailed at once, or every kind of that digest. */
export async function kindsMailed(member: number, topic: Topic): Promise<NotificationKind[]> {
  const channels = await channelsOf(member);
  const wanted = channelOf(topic);
  return (Object.entries(channels) as [NotificationKind, NotificationChannel][])
    .filter(([kind, channel]) => channel === wanted && (wanted !== "mail" || kind === topic))
    .map(([kind]) => kind);
}

/**
 * Stops the topic's mail: its kinds stay in the app only. Answers which kinds were turned off
 * (none when they already were: a repeat changes nothing) and the signature of their undo.
 */
export async function stopTopic(member: number, topic: Topic): Promise<{ kinds: NotificationKind[]; undo: string }> {
  const exists = await env.DB.prepare("SELECT 1 FROM users WHERE id = ? AND deleted_at IS NULL").bind(member).first();
  if (!exists) return { kinds: [], undo: "" };
  const kinds = await kindsMailed(member, topic);
  await setChannels(member, Object.fromEntries(kinds.map((kind) => [kind, "app"])));
  return { kinds, undo: base64url(await mac(config().pepper.secret, undoMessage(member, topic, kinds))) };
}

/**
 * Undoes a stop: `kinds` back to the topic's channel, when `signature` is the one that stop gave for
 * exactly those kinds (else null, nothing changed), and only those still in the app only (a kind the
 * member changed since keeps what they chose). Answers the kinds put back.
 */
export async function undoStop(member: number, topic: Topic, kinds: string[], signature: string): Promise<NotificationKind[] | null> {
  if (!(await signed(undoMessage(member, topic, kinds), signature))) return null;
  const { results } = await env.DB.prepare(
    `UPDATE notification_channels SET channel = ?3
       WHERE user_id = ?1 AND channel = 'app' AND kind IN (SELECT value FROM json_each(?2)) RETURNING kind`,
  )
    .bind(member, JSON.stringify(kinds), channelOf(topic))
    .all<{ kind: NotificationKind }>();
  return results.map((row) => row.kind);
}
