import jpegDecoder from "@jsquash/jpeg/codec/dec/mozjpeg_dec.wasm?module";
import jpegEncoder from "@jsquash/jpeg/codec/enc/mozjpeg_enc.wasm?module";
import decodeJpeg, { init as initJpegDecode } from "@jsquash/jpeg/decode";
import encodeJpeg, { init as initJpegEncode } from "@jsquash/jpeg/encode";
import pngDecoder from "@jsquash/png/codec/pkg/squoosh_png_bg.wasm?module";
import decodePng, { init as initPngDecode } from "@jsquash/png/decode";
import resize, { initResize } from "@jsquash/resize";
import resizer from "@jsquash/resize/lib/resize/pkg/squoosh_resize_bg.wasm?module";
import { inspectImage } from "~/.server/content/sniff";
import { AVATAR_MAX_MEGAPIXELS, AVATAR_SIZE } from "~/lib/limits";

// An avatar is decoded and drawn anew (docs/decisions/0021-avatars.md): the square at its centre,
// scaled to AVATAR_SIZE and encoded as a fresh JPEG, so nothing of the file as sent survives (no
// EXIF location, no comment, no trailing bytes). The codecs are WebAssembly, imported as modules
// because Workers may not compile WebAssembly from bytes at run time.

let ready: Promise<unknown> | undefined;
const codecs = () => {
  ready ??= Promise.all([initJpegDecode(jpegDecoder), initJpegEncode(jpegEncoder), initPngDecode(pngDecoder), initResize(resizer)]);
  return ready;
};

export type AvatarRefusal = "type" | "pixels";

/** The image as a square JPEG of AVATAR_SIZE pixels, or why it is refused. */
export async function reencodeAvatar(bytes: Uint8Array): Promise<Uint8Array | AvatarRefusal> {
  const info = inspectImage(bytes);
  if (!info) return "type";
  // Judged from the header, before a byte is decoded: decoding is what takes the memory.
  if (info.width * info.height > AVATAR_MAX_MEGAPIXELS * 1_000_000) return "pixels";
  await codecs();
  const buffer = bytes.slice().buffer;
  const image = await (info.type === "image/png" ? decodePng(buffer) : decodeJpeg(buffer)).catch(() => null);
  // A header that claims one size and a body that is another (or not an image at all) is no image.
  if (!image || image.width !== info.width || image.height !== info.height) return "type";
  const square = centreSquare(image.data, image.width, image.height);
  const small = await resize(square, { width: AVATAR_SIZE, height: AVATAR_SIZE, fitMethod: "stretch", method: "lanczos3" });
  flattenOnWhite(small.data);
  return new Uint8Array(await encodeJpeg(small, { quality: 85 }));
}

/** The largest square at the image's centre, copied out row by row. */
function centreSquare(pixels: Uint8ClampedArray, width: number, height: number): ImageData {
  const side = Math.min(width, height);
  const left = Math.floor((width - side) / 2);
  const top = Math.floor((height - side) / 2);
  const out = new Uint8ClampedArray(side * side * 4);
  for (let row = 0; row < side; row++) {
    const from = ((top + row) * width + left) * 4;
    out.set(pixels.subarray(from, from + side * 4), row * side * 4);
  }
  return { data: out, width: side, height: side, colorSpace: "srgb" } as ImageData;
}

/** JPEG has no transparency: a PNG's transparent parts become white, not black. */
function flattenOnWhite(pixels: Uint8ClampedArray) {
  for (let at = 0; at < pixels.length; at += 4) {
    const alpha = (pixels[at + 3] ?? 255) / 255;
    if (alpha === 1) continue;
    for (let channel = at; channel < at + 3; channel++) pixels[channel] = (pixels[channel] ?? 0) * alpha + 255 * (1 - alpha);
    pixels[at + 3] = 255;
  }
}
