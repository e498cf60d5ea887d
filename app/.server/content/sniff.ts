// File types are judged by their bytes, never by name or declared type.
const ascii = (bytes: Uint8Array, from: number, to: number) => String.fromCharCode(...bytes.subarray(from, to));

/** A PDF starts with "%PDF-1.x" (or 2.x). */
export function looksLikePdfHead(head: Uint8Array): boolean {
  return head.length >= 8 && /^%PDF-[12]\.\d/.test(ascii(head, 0, 8));
}

/** ...and ends with a cross-reference pointer and "%%EOF" (allowing trailing whitespace). */
export function looksLikePdfTail(tail: Uint8Array): boolean {
  const text = ascii(tail, 0, tail.length);
  return /startxref\s+\d+\s+%%EOF\s*$/.test(text);
}

const MP4_BRANDS = new Set(["isom", "iso2", "iso3", "iso4", "iso5", "iso6", "mp41", "mp42", "avc1", "dash", "M4V ", "mmp4", "MSNV"]);

/** An MP4 opens with an ftyp box whose major or a compatible brand is an MP4 brand. */
export function looksLikeMp4(head: Uint8Array): boolean {
  if (head.length < 16 || ascii(head, 4, 8) !== "ftyp") return false;
  const size = new DataView(head.buffer, head.byteOffset, head.byteLength).getUint32(0);
  if (size < 16 || size > 4096 || size % 4 !== 0) return false;
  const brands = [ascii(head, 8, 12)];
  for (let at = 16; at + 4 <= Math.min(size, head.length); at += 4) brands.push(ascii(head, at, at + 4));
  return brands.some((brand) => MP4_BRANDS.has(brand));
}

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
  if (bytes.length >= 4 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) {
    let at = 2;
    while (at + 9 < bytes.length) {
      if (bytes[at] !== 0xff) return null;
      const marker = bytes[at + 1] ?? 0;
      const length = view.getUint16(at + 2);
      // SOF0..SOF15 except DHT (C4), JPG (C8) and DAC (CC) carry height and width.
      if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
        return { type: "image/jpeg", height: view.getUint16(at + 5), width: view.getUint16(at + 7) };
      }
      at += 2 + length;
    }
  }
  return null;
}
