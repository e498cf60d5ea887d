import { env } from "~/.server/bindings";
import { reencodeImage } from "~/.server/images/reencode";
import { THUMBNAIL_WIDTHS } from "~/lib/limits";

// Cards show thumbnails 16:9 at most about 400 CSS pixels wide; the upload itself may be a 5 MB
// photo. Each thumbnail gets variants at THUMBNAIL_WIDTHS, as WebP (about a third smaller, for the
// browsers that say they take it) and JPEG (for the rest), made after the upload is answered and,
// for a thumbnail from before them, on its first request. A thumbnail never changes, so a variant
// made once is right for good.

export type VariantWidth = (typeof THUMBNAIL_WIDTHS)[number];
export type VariantType = "image/webp" | "image/jpeg";
const VARIANTS = THUMBNAIL_WIDTHS.flatMap((width) => (["image/webp", "image/jpeg"] as const).map((type) => ({ width, type })));

export const variantKey = (thumbnailKey: string, width: VariantWidth, type: VariantType) =>
  `${thumbnailKey}.w${width}.${type === "image/webp" ? "webp" : "jpg"}`;

/** WebP for a browser whose Accept names it (every current one does for images), else JPEG. */
export const variantTypeFor = (accept: string | null): VariantType => (accept?.includes("image/webp") ? "image/webp" : "image/jpeg");

/** Set when a thumbnail cannot be drawn, so later requests serve it as sent without trying again. */
const undrawable = (thumbnailKey: string) => `${thumbnailKey}.as-sent`;

/** Every variant's key (and the mark of none), to delete with the thumbnail. */
export const variantKeys = (thumbnailKey: string) => [
  ...VARIANTS.map(({ width, type }) => variantKey(thumbnailKey, width, type)),
  undrawable(thumbnailKey),
];

/** The variant for `?w=`: the narrowest at least that wide (the widest for more), or null without one. */
export function variantFor(asked: string | null): VariantWidth | null {
  const width = Number(asked);
  if (!asked || !Number.isInteger(width) || width < 1) return null;
  return THUMBNAIL_WIDTHS.find((w) => w >= width) ?? (THUMBNAIL_WIDTHS.at(-1) as VariantWidth);
}

const making = new Map<string, Promise<boolean>>();

/**
 * Makes the thumbnail's missing variants (one decode for all); answers whether they exist now.
 * False when the thumbnail cannot be drawn (over the decode bound, or not an image after all): it
 * is then served as sent. Requests for the same thumbnail at once share one making.
 */
export function makeVariants(thumbnailKey: string): Promise<boolean> {
  let made = making.get(thumbnailKey);
  if (!made) {
    made = make(thumbnailKey).finally(() => making.delete(thumbnailKey));
    making.set(thumbnailKey, made);
  }
  return made;
}

async function make(thumbnailKey: string): Promise<boolean> {
  const bucket = env.FILES;
  const [refused, ...heads] = await Promise.all([
    bucket.head(undrawable(thumbnailKey)),
    ...VARIANTS.map(({ width, type }) => bucket.head(variantKey(thumbnailKey, width, type))),
  ]);
  if (refused) return false;
  const missing = VARIANTS.filter((_, at) => !heads[at]);
  if (missing.length === 0) return true;
  const original = await bucket.get(thumbnailKey);
  if (!original) return false;
  const sizes = missing.map(({ width, type }) => ({ width, height: Math.round((width * 9) / 16), quality: 80, type }));
  const drawn = await reencodeImage(new Uint8Array(await original.arrayBuffer()), sizes);
  if (typeof drawn === "string") {
    await bucket.put(undrawable(thumbnailKey), "");
    return false;
  }
  await Promise.all(
    missing.map(({ width, type }, at) =>
      bucket.put(variantKey(thumbnailKey, width, type), drawn[at] ?? "", { httpMetadata: { contentType: type } }),
    ),
  );
  return true;
}
