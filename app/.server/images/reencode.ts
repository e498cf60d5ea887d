import jpegDecoder from "@jsquash/jpeg/codec/dec/mozjpeg_dec.wasm?module";
import jpegEncoder from "@jsquash/jpeg/codec/enc/mozjpeg_enc.wasm?module";
import decodeJpeg, { init as initJpegDecode } from "@jsquash/jpeg/decode";
import encodeJpeg, { init as initJpegEncode } from "@jsquash/jpeg/encode";
import pngDecoder from "@jsquash/png/codec/pkg/squoosh_png_bg.wasm?module";
import decodePng, { init as initPngDecode } from "@jsquash/png/decode";
import resize, { initResize } from "@jsquash/resize";
import resizer from "@jsquash/resize/lib/resize/pkg/squoosh_resize_bg.wasm?module";
import webpEncoder from "@jsquash/webp/codec/enc/webp_enc_simd.wasm?module";
import encodeWebp, { init as initWebpEncode } from "@jsquash/webp/encode";
import { DECODE_MAX_MEGAPIXELS } from "~/lib/limits";
import { inspectImage } from "./inspect";

// Images members send are decoded and drawn anew (docs/decisions/0021-avatars.md): the part at the
// centre with the wanted shape, scaled and encoded as a fresh JPEG (or WebP), so nothing of the file as sent
// survives (no EXIF location, no comment, no trailing bytes). Avatars and the thumbnails' card-sized
// variants are made this way. The codecs are WebAssembly, imported as modules because Workers may
// not compile WebAssembly from bytes at run time. Decoding is what takes the memory, so images over
// DECODE_MAX_MEGAPIXELS are refused before it.

let ready: Promise<unknown> | undefined;
const codecs = () => {
  ready ??= Promise.all([
    initJpegDecode(jpegDecoder),
    initJpegEncode(jpegEncoder),
    initPngDecode(pngDecoder),
    initResize(resizer),
    // Workers run WebAssembly SIMD, so the encoder's SIMD build is the one it loads.
    initWebpEncode(webpEncoder),
  ]);
  return ready;
};

export type ImageRefusal = "type" | "pixels";

export interface Drawn {
  width: number;
  height: number;
  quality: number;
  /** JPEG unless asked: every browser shows it. */
  type?: "image/jpeg" | "image/webp";
}

let queue: Promise<unknown> = Promise.resolve();

/** One decode at a time in an isolate: each may take half of its memory. */
function oneAtATime<T>(work: () => Promise<T>): Promise<T> {
  const run = queue.then(work, work);
  queue = run.catch(() => {});
  return run;
}

/**
 * The image's centre, cut to each size's width:height and scaled to it, in each size's type (one
 * decode for all of them); or why it cannot be.
 */
export function reencodeImage(bytes: Uint8Array, sizes: Drawn[]): Promise<Uint8Array[] | ImageRefusal> {
  return oneAtATime(() => reencode(bytes, sizes));
}

async function reencode(bytes: Uint8Array, sizes: Drawn[]): Promise<Uint8Array[] | ImageRefusal> {
  const info = inspectImage(bytes);
  if (!info) return "type";
  // Judged from the header, before a byte is decoded: decoding is what takes the memory.
  if (info.width * info.height > DECODE_MAX_MEGAPIXELS * 1_000_000) return "pixels";
  await codecs();
  // The whole buffer when the bytes are all of it (a copy would double the largest thing held).
  const whole = bytes.buffer instanceof ArrayBuffer && bytes.byteLength === bytes.buffer.byteLength;
  const buffer = whole ? (bytes.buffer as ArrayBuffer) : bytes.slice().buffer;
  // A photo is turned upright from its EXIF orientation before that is dropped, as browsers show it.
  const decoded = info.type === "image/png" ? decodePng(buffer) : decodeJpeg(buffer, { preserveOrientation: true });
  // A header over anything but image data is no image.
  const image = await decoded.catch(() => null);
  // The frame judged above is the one decoded (turning it upright swaps the sides, not their product).
  if (!image || image.width * image.height !== info.width * info.height) return "type";
  const encoded: Uint8Array[] = [];
  const scaled = new Map<string, ImageData>();
  for (const size of sizes) {
    const shape = `${size.width}x${size.height}`;
    let drawn = scaled.get(shape);
    if (!drawn) {
      // "contain" takes the centre part of the wanted shape (cropped in place), then scales it.
      drawn = await resize(image, { width: size.width, height: size.height, fitMethod: "contain", method: "lanczos3" });
      flattenOnWhite(drawn.data);
      scaled.set(shape, drawn);
    }
    const bytes = size.type === "image/webp" ? encodeWebp(drawn, { quality: size.quality }) : encodeJpeg(drawn, { quality: size.quality });
    encoded.push(new Uint8Array(await bytes));
  }
  return encoded;
}

/** JPEG has no transparency: a PNG's transparent parts become white, not black (in WebP too, to look the same). */
function flattenOnWhite(pixels: Uint8ClampedArray) {
  for (let at = 0; at < pixels.length; at += 4) {
    const alpha = (pixels[at + 3] ?? 255) / 255;
    if (alpha === 1) continue;
    for (let channel = at; channel < at + 3; channel++) pixels[channel] = (pixels[channel] ?? 0) * alpha + 255 * (1 - alpha);
    pixels[at + 3] = 255;
  }
}
