// An image's type and pixel size, judged by its bytes (never its name or declared type), the way
// the decoder will read them: what the content, avatar and verification checks and the re-encoder
// share.

const ascii = (bytes: Uint8Array, from: number, to: number) => String.fromCharCode(...bytes.subarray(from, to));

export interface ImageInfo {
  type: "image/png" | "image/jpeg";
  width: number;
  height: number;
}

/** PNG (signature + IHDR) or JPEG (SOI + a start-of-frame marker), with its pixel size. */
export function inspectImage(bytes: Uint8Array): ImageInfo | null {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const png = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
  if (bytes.length >= 24 && png.every((b, i) => bytes[i] === b) && ascii(bytes, 12, 16) === "IHDR") {
    return { type: "image/png", width: view.getUint32(16), height: view.getUint32(20) };
  }
  const frame = jpegFrame(bytes, view);
  return frame ? { type: "image/jpeg", ...frame } : null;
}

/** The JPEG marker at `at` (fill bytes FF before it allowed) and where its segment starts; null when none is there. */
export function jpegMarkerAt(bytes: Uint8Array, at: number): { marker: number; next: number } | null {
  if (bytes[at] !== 0xff) return null;
  let next = at;
  while (bytes[next] === 0xff) next++;
  const marker = bytes[next];
  return marker === undefined ? null : { marker, next: next + 1 };
}

/** RST0..RST7 and TEM carry no length. */
export const isParameterless = (marker: number) => (marker >= 0xd0 && marker <= 0xd7) || marker === 0x01;

/**
 * A JPEG's frame size as the decoder (libjpeg's marker reader, jdmarker.c) reads it: markers up to
 * the first start of scan, where RSTn and TEM carry no length, fill bytes (FF) may precede a marker,
 * and a second SOI or SOF is an error. Whatever libjpeg would read differently, skip or guess at
 * (bytes between segments, a stuffed FF 00, reserved markers) is no image here: a size judged on a
 * different path than the decoder's is how a small header hides a huge frame (issue 30).
 */
function jpegFrame(bytes: Uint8Array, view: DataView): { width: number; height: number } | null {
  if (bytes[0] !== 0xff || bytes[1] !== 0xd8) return null;
  let frame: { width: number; height: number } | null = null;
  let at = 2;
  while (at < bytes.length) {
    const found = jpegMarkerAt(bytes, at);
    if (!found) return null;
    const { marker } = found;
    at = found.next;
    if (isParameterless(marker)) continue;
    // Start of scan: the header is over, and the frame is what will be decoded.
    if (marker === 0xda) return frame && frame.width > 0 && frame.height > 0 ? frame : null;
    const isFrame = marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc;
    const hasLength = isFrame || [0xc4, 0xcc, 0xdb, 0xdc, 0xdd, 0xfe].includes(marker) || (marker >= 0xe0 && marker <= 0xef);
    if (!hasLength || at + 2 > bytes.length) return null;
    const length = view.getUint16(at);
    if (length < 2) return null;
    if (isFrame) {
      if (frame || length < 8 || at + 7 > bytes.length) return null;
      frame = { height: view.getUint16(at + 3), width: view.getUint16(at + 5) };
    }
    at += length;
  }
  return null;
}
