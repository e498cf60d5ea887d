import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { inspectImage } from "~/.server/images/inspect";
import { withoutMetadata } from "~/.server/images/strip-metadata";

// Issue 30: thumbnails are served as sent, so what a camera wrote beside the pixels reached every
// member. The images are written and read back by libvips (sharp), not by our own reading of EXIF.

const SECRET = "secret-of-the-uploader";
const exif = {
  IFD0: { Copyright: SECRET, ImageDescription: SECRET, Make: "CameraCo", Model: "Serial 12345" },
  IFD3: { GPSLatitudeRef: "N", GPSLatitude: "35/1 41/1 22/1", GPSLongitudeRef: "E", GPSLongitude: "139/1 41/1 30/1" },
};
const xmp = `<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">${SECRET}</rdf:RDF></x:xmpmeta>`;

/** A 40×24 gradient (so any change to the pixels shows) with EXIF, XMP and an ICC profile. */
async function photo(format: "jpeg" | "png", options: { orientation?: number; progressive?: boolean } = {}) {
  const width = 40;
  const height = 24;
  const pixels = Buffer.alloc(width * height * 3);
  for (let i = 0; i < pixels.length; i++) pixels[i] = (i * 7) % 256;
  const image = sharp(pixels, { raw: { width, height, channels: 3 } });
  const encoded = format === "jpeg" ? image.jpeg({ progressive: options.progressive ?? false }) : image.png();
  const withOrientation = options.orientation ? encoded.withMetadata({ orientation: options.orientation }) : encoded.withIccProfile("srgb");
  return new Uint8Array(await withOrientation.withExif(exif).withXmp(xmp).toBuffer());
}

/** A JPEG comment segment (FF FE) right after SOI, and bytes after the end of the image. */
function withCommentAndTrailer(jpeg: Uint8Array) {
  const comment = new TextEncoder().encode(SECRET);
  const segment = Uint8Array.of(0xff, 0xfe, 0, comment.length + 2, ...comment);
  return Uint8Array.from([...jpeg.subarray(0, 2), ...segment, ...jpeg.subarray(2), ...new TextEncoder().encode(`trailer ${SECRET}`)]);
}

const text = (bytes: Uint8Array) => Buffer.from(bytes).toString("latin1");
const rawPixels = async (bytes: Uint8Array) => sharp(bytes).raw().toBuffer();

async function stripped(bytes: Uint8Array) {
  const type = inspectImage(bytes)?.type;
  if (!type) throw new Error("not an image inspectImage accepts");
  const kept = withoutMetadata(bytes, type);
  if (!kept) throw new Error("refused");
  return kept;
}

describe("thumbnails lose their metadata, never their pixels", () => {
  it.each([
    ["baseline JPEG", () => photo("jpeg", { orientation: 6 }).then(withCommentAndTrailer)],
    ["progressive JPEG", () => photo("jpeg", { orientation: 6, progressive: true }).then(withCommentAndTrailer)],
    ["PNG", () => photo("png", { orientation: 6 })],
  ])("%s: no EXIF but the orientation, no XMP, no comment, no trailer; same pixels and colour profile", async (_, make) => {
    const sent = await make();
    const before = await sharp(sent).metadata();
    expect(before.exif?.length).toBeGreaterThan(100);
    expect(before.xmp).toBeDefined();
    expect(before.orientation).toBe(6);

    const kept = await stripped(sent);
    const after = await sharp(kept).metadata();
    expect(text(kept)).not.toContain(SECRET);
    expect(text(kept)).not.toContain("CameraCo");
    expect(after.xmp).toBeUndefined();
    // The EXIF left is the orientation alone: "Exif\0\0" (JPEG only) and a 26-byte TIFF of one entry.
    expect(after.exif?.length).toBeLessThanOrEqual(32);
    expect(after.orientation).toBe(6);
    expect(after.icc).toEqual(before.icc);
    expect([after.width, after.height, after.format]).toEqual([before.width, before.height, before.format]);
    expect(Buffer.compare(await rawPixels(kept), await rawPixels(sent))).toBe(0);
  });

  it("writes no EXIF at all when the image had no orientation to keep", async () => {
    for (const format of ["jpeg", "png"] as const) {
      const kept = await stripped(await photo(format));
      const after = await sharp(kept).metadata();
      expect(after.exif, format).toBeUndefined();
      expect(after.orientation, format).toBeUndefined();
      expect(after.icc, format).toBeDefined();
    }
  });

  it("refuses a structure it cannot walk to its end", async () => {
    const png = await photo("png");
    expect(withoutMetadata(png.subarray(0, png.length - 20), "image/png")).toBeNull();
    const jpeg = await photo("jpeg");
    expect(withoutMetadata(Uint8Array.from([...jpeg.subarray(0, 2), 0x00, ...jpeg.subarray(2)]), "image/jpeg")).toBeNull();
  });
});
