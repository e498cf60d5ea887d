import { reencodeImage } from "~/.server/images/reencode";
import { THUMBNAIL_WIDTHS } from "~/lib/limits";

// Cards show thumbnails 16:9 at most about 400 CSS pixels wide; the upload itself may be a 5 MB
// photo. Each thumbnail gets JPEG variants at THUMBNAIL_WIDTHS, made after the upload is answered
// and, for a thumbnail from before them (or a miss), on its first request. A thumbnail never
// changes, so a variant made once is right for good; two requests making it at once write the same.

export type VariantWidth = (typeof THUMBNAIL_WIDTHS)[number];

export const variantKey = (thumbnailKey: string, width: VariantWidth) => `${thumbnailKey}.w${width}.jpg`;

/** Every variant's key, to delete with the thumbnail. */
export const variantKeys = (thumbnailKey: string) => THUMBNAIL_WIDTHS.map((width) => variantKey(thumbnailKey, width));

/** The variant for `?w=`: the narrowest at least that wide (the widest for more), or null without one. */
export function variantFor(asked: string | null): VariantWidth | null {
  const width = Number(asked);
  if (!asked || !Number.isInteger(width) || width < 1) return null;
  return THUMBNAIL_WIDTHS.find((w) => w >= width) ?? (THUMBNAIL_WIDTHS.at(-1) as VariantWidth);
}

/**
 * Makes the thumbnail's variants that are missing (all of them, or only `only`); answers whether the
 * ones asked for exist now. False when the thumbnail cannot be drawn (over the decode bound, or not
 * an image after all): it is then served as sent.
 */
export async function makeVariants(bucket: R2Bucket, thumbnailKey: string, only?: VariantWidth): Promise<boolean> {
  const wanted = only ? [only] : [...THUMBNAIL_WIDTHS];
  const heads = await Promise.all(wanted.map((width) => bucket.head(variantKey(thumbnailKey, width))));
  const missing = wanted.filter((_, at) => !heads[at]);
  if (missing.length === 0) return true;
  const original = await bucket.get(thumbnailKey);
  if (!original) return false;
  const bytes = new Uint8Array(await original.arrayBuffer());
  for (const width of missing) {
    const jpeg = await reencodeImage(bytes, { width, height: Math.round((width * 9) / 16), quality: 80 });
    if (typeof jpeg === "string") return false;
    await bucket.put(variantKey(thumbnailKey, width), jpeg, { httpMetadata: { contentType: "image/jpeg" } });
  }
  return true;
}
