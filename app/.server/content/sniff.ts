// File types are judged by their bytes, never by name or declared type (images: images/inspect.ts).
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

/**
 * A movie's length in ms from its `mvhd` box, read through `read(offset, length)` box by box (the
 * `moov` box may come after the media data, so the file is never read whole); null without one.
 */
export async function mp4DurationMs(size: number, read: (offset: number, length: number) => Promise<Uint8Array>): Promise<number | null> {
  /** The box at `at`: its type, where its contents start and where it ends. */
  const box = async (at: number, end: number) => {
    const head = await read(at, 16);
    if (head.length < 8) return null;
    const view = new DataView(head.buffer, head.byteOffset, head.byteLength);
    const short = view.getUint32(0);
    const long = short === 1 && head.length >= 16 ? Number(view.getBigUint64(8)) : null;
    const length = short === 0 ? end - at : (long ?? short);
    if (length < 8 || at + length > end) return null;
    return { type: ascii(head, 4, 8), body: at + (long === null ? 8 : 16), end: at + length };
  };
  // Bounded: a file of a thousand tiny boxes is not walked to its end.
  let at = 0;
  for (let n = 0; n < 64 && at + 8 <= size; n++) {
    const found = await box(at, size);
    if (!found) return null;
    if (found.type === "moov") {
      let child = found.body;
      for (let m = 0; m < 64 && child + 8 <= found.end; m++) {
        const inner = await box(child, found.end);
        if (!inner) return null;
        if (inner.type === "mvhd") {
          const mvhd = await read(inner.body, 32);
          const view = new DataView(mvhd.buffer, mvhd.byteOffset, mvhd.byteLength);
          const v1 = mvhd[0] === 1;
          if (mvhd.length < (v1 ? 32 : 20)) return null;
          const scale = view.getUint32(v1 ? 20 : 12);
          const duration = v1 ? Number(view.getBigUint64(24)) : view.getUint32(16);
          return scale > 0 ? Math.round((duration / scale) * 1000) : null;
        }
        child = inner.end;
      }
      return null;
    }
    at = found.end;
  }
  return null;
}
