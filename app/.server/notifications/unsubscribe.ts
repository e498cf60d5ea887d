import { base64url, fromBase64url, timingSafeEqual } from "~/.server/accounts/crypto";
import { env } from "~/.server/bindings";
import { config } from "~/.server/config/config";
import { isNotificationKind, type NotificationChannel, type NotificationKind } from "~/lib/notifications";
import { channelsOf, setChannels } from "./notifications";

// One-click unsubscribe for members (RFC 8058; docs/decisions/0040-calm-notifications.md): every
// mail that is not about the account's security carries a link for its member and topic (a kind,
// or a digest), signed with an HMAC under a key derived from the pepper, so it works without a
// session and cannot be made for another member or topic. Stopping a topic moves its kinds to "in
// the app only"; the page offers to put them back.

/** What a mail is about: one kind (a mail at once), or the daily or weekly digest. */
export type Topic = NotificationKind | "daily" | "weekly";

export const isTopic = (value: string): value is Topic => value === "daily" || value === "weekly" || isNotificationKind(value);

const encoder = new TextEncoder();

async function mac(secret: string, member: number, topic: Topic): Promise<Uint8Array> {
  const key = await crypto.subtle.importKey(
    "raw",
    encoder.encode(`member-unsubscribe:${secret}`),
    { name: "HMAC", hash: "SHA-256" },
    false,
    ["sign"],
  );
  return new Uint8Array(await crypto.subtle.sign("HMAC", key, encoder.encode(`${member}:${topic}`)));
}

/** The link that stops this topic's mail for this member, on the site at `origin`. */
export async function unsubscribeUrl(origin: string, member: number, topic: Topic): Promise<string> {
  const query = new URLSearchParams({ m: String(member), k: topic, t: base64url(await mac(config().pepper.secret, member, topic)) });
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
  let given: Uint8Array;
  try {
    given = fromBase64url(String(params.get("t") ?? ""));
  } catch {
    return null;
  }
  for (const secret of config().pepper.byId.values())
    if (timingSafeEqual(await mac(secret, member, topic), given)) return { member, topic };
  return null;
}

/** The kinds a topic's mail carries for this member now: the kind itself if mailed at once, or every kind of that digest. */
export async function kindsMailed(member: number, topic: Topic): Promise<NotificationKind[]> {
  const channels = await channelsOf(member);
  const wanted: NotificationChannel = topic === "daily" || topic === "weekly" ? topic : "mail";
  return (Object.entries(channels) as [NotificationKind, NotificationChannel][])
    .filter(([kind, channel]) => channel === wanted && (wanted !== "mail" || kind === topic))
    .map(([kind]) => kind);
}

/**
 * Stops the topic's mail: its kinds stay in the app only. Answers what was turned off (nothing when
 * it already was: a repeat changes nothing) with the channel each had, for the page's undo.
 */
export async function stopTopic(member: number, topic: Topic): Promise<Partial<Record<NotificationKind, NotificationChannel>>> {
  const exists = await env.DB.prepare("SELECT 1 FROM users WHERE id = ? AND deleted_at IS NULL").bind(member).first();
  if (!exists) return {};
  const kinds = await kindsMailed(member, topic);
  const before = Object.fromEntries(kinds.map((kind) => [kind, topic === "daily" || topic === "weekly" ? topic : "mail"]));
  await setChannels(member, Object.fromEntries(kinds.map((kind) => [kind, "app"])));
  return before;
}
