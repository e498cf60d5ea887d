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
  // The whole buffer when the bytes are all of it (a copy would double the largest thing held).
  const whole = bytes.buffer instanceof ArrayBuffer && bytes.byteLength === bytes.buffer.byteLength;
  const buffer = whole ? (bytes.buffer as ArrayBuffer) : bytes.slice().buffer;
  // A photo is turned upright from its EXIF orientation before that is dropped, as browsers show it.
  const decoded = info.type === "image/png" ? decodePng(buffer) : decodeJpeg(buffer, { preserveOrientation: true });
  // A header over anything but image data is no image.
  const image = await decoded.catch(() => null);
  if (!image) return "type";
  // "contain" takes the centre square (cropped in place), then scales it.
  const square = await resize(image, { width: AVATAR_SIZE, height: AVATAR_SIZE, fitMethod: "contain", method: "lanczos3" });
  flattenOnWhite(square.data);
  return new Uint8Array(await encodeJpeg(square, { quality: 85 }));
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
