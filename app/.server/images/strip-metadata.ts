import { isParameterless, jpegMarkerAt } from "./inspect";

// A thumbnail is served as its owner sent it (the cards' variants are drawn anew, but the detail page
// and a browser's "open image" show the original), so what a camera or editor wrote beside the pixels
// (EXIF with GPS and serial numbers, XMP, IPTC, comments, text chunks, bytes after the end) would
// reach every member. This drops it without decoding: the pixels, their colour (ICC, Adobe, gamma)
// and the orientation stay as they were (docs/decisions/0033-thumbnail-metadata.md). The image has
// already been judged by inspectImage (sniff.ts), so its structure is the one walked here.

const ORIENTATION_TAG = 0x0112;

/** The image without metadata, orientation kept; null when it is not the structure inspectImage accepted. */
export function withoutMetadata(bytes: Uint8Array, type: "image/png" | "image/jpeg"): Uint8Array | null {
  return type === "image/png" ? pngWithout(bytes) : jpegWithout(bytes);
}

// --- JPEG: segments until the first scan, then scans and the segments between them, until EOI.

/** APP0 (JFIF), APP2 (ICC profile) and APP14 (Adobe colour transform) say how to show the pixels. */
const KEPT_APP = new Set([0xe0, 0xe2, 0xee]);
const isMetadataMarker = (marker: number) => (marker >= 0xe0 && marker <= 0xef && !KEPT_APP.has(marker)) || marker === 0xfe;

function jpegWithout(bytes: Uint8Array): Uint8Array | null {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const kept: Uint8Array[] = [bytes.subarray(0, 2)];
  let orientation = 1;
  let at = 2;
  while (at < bytes.length) {
    const found = jpegMarkerAt(bytes, at);
    if (!found) return null;
    const { marker } = found;
    at = found.next;
    if (marker === 0xd9) {
      kept.push(Uint8Array.of(0xff, 0xd9));
      return joinJpeg(kept, orientation);
    }
    if (isParameterless(marker)) {
      kept.push(Uint8Array.of(0xff, marker));
      continue;
    }
    if (at + 2 > bytes.length) return null;
    const end = at + view.getUint16(at);
    if (end > bytes.length) return null;
    if (marker === 0xe1) orientation = exifOrientation(bytes.subarray(at + 2, end)) ?? orientation;
    if (!isMetadataMarker(marker)) kept.push(Uint8Array.of(0xff, marker), bytes.subarray(at, end));
    at = end;
    // A scan's entropy-coded data runs to the next marker that is not a stuffed FF 00 or a restart.
    // A file that ends inside a scan (no EOI; decoders show it) gets its EOI.
    if (marker === 0xda) {
      const from = at;
      while (at < bytes.length && !isMarkerAt(bytes, at)) at++;
      kept.push(bytes.subarray(from, at));
      if (at >= bytes.length) return joinJpeg([...kept, Uint8Array.of(0xff, 0xd9)], orientation);
    }
  }
  return null;
}

/** FF then a byte that is neither a stuffed 00 nor a restart marker. */
const isMarkerAt = (bytes: Uint8Array, at: number) => {
  const next = bytes[at + 1];
  return bytes[at] === 0xff && next !== undefined && next !== 0 && !(next >= 0xd0 && next <= 0xd7);
};

function joinJpeg(kept: Uint8Array[], orientation: number): Uint8Array {
  if (orientation !== 1) {
    const tiff = minimalTiff(orientation);
    const exif = new Uint8Array(4 + 6 + tiff.length);
    exif.set([0xff, 0xe1, (exif.length - 2) >> 8, (exif.length - 2) & 0xff, 0x45, 0x78, 0x69, 0x66, 0, 0]);
    exif.set(tiff, 10);
    kept.splice(1, 0, exif);
  }
  return concat(kept);
}

// --- PNG: chunks that say how to draw the image are kept; text, EXIF, time and unknown ones are not.

const KEPT_CHUNKS = new Set([
  ...["IHDR", "PLTE", "IDAT", "IEND", "tRNS", "cHRM", "gAMA", "iCCP", "sBIT", "sRGB", "cICP", "mDCv", "cLLi"],
  ...["bKGD", "hIST", "pHYs", "acTL", "fcTL", "fdAT"],
]);

function pngWithout(bytes: Uint8Array): Uint8Array | null {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const kept: Uint8Array[] = [bytes.subarray(0, 8)];
  let orientation = 1;
  let at = 8;
  while (at + 12 <= bytes.length) {
    const end = at + 12 + view.getUint32(at);
    if (end > bytes.length) return null;
    const name = String.fromCharCode(...bytes.subarray(at + 4, at + 8));
    if (name === "eXIf") orientation = tiffOrientation(bytes.subarray(at + 8, end - 4)) ?? orientation;
    if (KEPT_CHUNKS.has(name)) kept.push(bytes.subarray(at, end));
    at = end;
    if (name === "IEND") {
      if (orientation !== 1) kept.splice(2, 0, pngChunk("eXIf", minimalTiff(orientation)));
      return concat(kept);
    }
  }
  return null;
}

function pngChunk(name: string, data: Uint8Array): Uint8Array {
  const chunk = new Uint8Array(12 + data.length);
  const view = new DataView(chunk.buffer);
  view.setUint32(0, data.length);
  for (let i = 0; i < 4; i++) chunk[4 + i] = name.charCodeAt(i);
  chunk.set(data, 8);
  view.setUint32(8 + data.length, crc32(chunk.subarray(4, 8 + data.length)));
  return chunk;
}

let crcTable: Uint32Array | undefined;
function crc32(bytes: Uint8Array): number {
  crcTable ??= Uint32Array.from({ length: 256 }, (_, n) => {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    return c >>> 0;
  });
  let crc = 0xffffffff;
  for (const byte of bytes) crc = (crcTable[(crc ^ byte) & 0xff] ?? 0) ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}

// --- EXIF: only the orientation is read, and only the orientation is written back.

/** An APP1 segment's orientation when it is EXIF ("Exif\0\0" then TIFF). */
function exifOrientation(segment: Uint8Array): number | null {
  const isExif = segment.length > 6 && String.fromCharCode(...segment.subarray(0, 4)) === "Exif" && segment[4] === 0 && segment[5] === 0;
  return isExif ? tiffOrientation(segment.subarray(6)) : null;
}

/** IFD0's Orientation (1 to 8) of a TIFF structure, or null. */
function tiffOrientation(tiff: Uint8Array): number | null {
  if (tiff.length < 8) return null;
  const view = new DataView(tiff.buffer, tiff.byteOffset, tiff.byteLength);
  const little = tiff[0] === 0x49 && tiff[1] === 0x49;
  if (!little && !(tiff[0] === 0x4d && tiff[1] === 0x4d)) return null;
  const ifd = view.getUint32(4, little);
  if (ifd + 2 > tiff.length) return null;
  const count = view.getUint16(ifd, little);
  for (let entry = ifd + 2; entry + 12 <= tiff.length && entry < ifd + 2 + count * 12; entry += 12) {
    if (view.getUint16(entry, little) !== ORIENTATION_TAG || view.getUint16(entry + 2, little) !== 3) continue;
    const value = view.getUint16(entry + 8, little);
    return value >= 1 && value <= 8 ? value : null;
  }
  return null;
}

/** Big-endian TIFF with one IFD of one entry: Orientation. */
function minimalTiff(orientation: number): Uint8Array {
  // "MM", 42, IFD at 8; 1 entry: tag 0x0112, SHORT, count 1, the value; no next IFD.
  return Uint8Array.of(0x4d, 0x4d, 0, 42, 0, 0, 0, 8, 0, 1, 0x01, 0x12, 0, 3, 0, 0, 0, 1, 0, orientation, 0, 0, 0, 0, 0, 0);
}

function concat(parts: Uint8Array[]): Uint8Array {
  const joined = new Uint8Array(parts.reduce((sum, part) => sum + part.length, 0));
  let at = 0;
  for (const part of parts) {
    joined.set(part, at);
    at += part.length;
  }
  return joined;
}
