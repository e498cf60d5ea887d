import { env } from "~/.server/bindings";
import { reencodeImage } from "~/.server/images/reencode";
import { Refused } from "~/.server/refused";
import { AVATAR_SIZE, DECODE_MAX_MEGAPIXELS } from "~/lib/limits";

// A member's avatar (docs/decisions/0021-avatars.md): one re-encoded JPEG in R2 under a new name
// per change, so its address can be cached for ever; the users row names the current one.

const PREFIX = "avatars/";
const keyOf = (image: string) => image.slice(1); // "/avatars/12/<uuid>.jpg" is served from "avatars/12/<uuid>.jpg"

/** Why an avatar is refused, as a schema message ("key|name=value", lib/form-errors.ts). */
const refusals = {
  type: "validation.avatarType",
  pixels: `validation.avatarPixels|max=${DECODE_MAX_MEGAPIXELS}`,
};

/** Store `bytes` as the member's avatar; answers its address, or refuses an image it cannot use. */
export async function setAvatar(userId: number, bytes: Uint8Array) {
  const bucket = env.FILES;
  const drawn = await reencodeImage(bytes, [{ width: AVATAR_SIZE, height: AVATAR_SIZE, quality: 85 }]);
  if (typeof drawn === "string") throw new Refused(refusals[drawn], { field: "avatar" });
  const [jpeg = new Uint8Array()] = drawn;
  const image = `/${PREFIX}${userId}/${crypto.randomUUID()}.jpg`;
  await bucket.put(keyOf(image), jpeg, { httpMetadata: { contentType: "image/jpeg" } });
  // Named by nothing (the account went meanwhile, or the update failed): the object goes too.
  const named = await replaceImage(userId, image).catch(() => false);
  if (!named) {
    await bucket.delete(keyOf(image));
    throw new Error(`the avatar of member ${userId} was not saved`);
  }
  return { image };
}

/** Back to the default picture. */
export const removeAvatar = (userId: number) => replaceImage(userId, null);

/**
 * The old and new name in one transaction, so two changes at once each delete exactly the one they
 * replaced. False when there is no such (undeleted) member.
 */
async function replaceImage(userId: number, image: string | null) {
  const db = env.DB;
  const [before, update] = await db.batch<{ image: string | null }>([
    db.prepare("SELECT image FROM users WHERE id = ? AND deleted_at IS NULL").bind(userId),
    db.prepare("UPDATE users SET image = ? WHERE id = ? AND deleted_at IS NULL").bind(image, userId),
  ]);
  if (!update?.meta.changes) return false;
  const old = before?.results[0]?.image;
  if (old?.startsWith(`/${PREFIX}${userId}/`)) await env.FILES.delete(keyOf(old));
  return true;
}

/** Every avatar object of the member's (an account's deletion queues them; also any left by a failure). */
export async function avatarKeys(userId: number): Promise<string[]> {
  const keys: string[] = [];
  let cursor: string | undefined;
  do {
    const listed = await env.FILES.list({ prefix: `${PREFIX}${userId}/`, cursor });
    keys.push(...listed.objects.map((object) => object.key));
    cursor = listed.truncated ? listed.cursor : undefined;
  } while (cursor);
  return keys;
}

export const isAvatarPath = (pathname: string) => pathname.startsWith(`/${PREFIX}`);

/** The avatar stored at an avatar's address, or null (outside the pages' middleware: no session, no cookies). */
export async function avatarAt(pathname: string): Promise<R2ObjectBody | null> {
  const valid = /^\/avatars\/\d+\/[\w-]+\.jpg$/.test(pathname);
  return valid ? await env.FILES.get(keyOf(pathname)) : null;
}
