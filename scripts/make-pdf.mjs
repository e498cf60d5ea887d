// Small PDFs made in code, for the text-extraction tests and bench: real text in any script (a
// Type0 font whose ToUnicode map says what each code is, as CJK-capable PDF writers emit it), a
// scanned-looking page (an image, no text), a password-protected file, and padding to any size.

const enc = new TextEncoder();
const hex4 = (n) => n.toString(16).padStart(4, "0").toUpperCase();

/** Code = UTF-16 code unit, mapped back to itself: 256 ranges, one per high byte (surrogates left out). */
function toUnicodeCMap() {
  const ranges = [];
  for (let high = 0; high < 256; high++) {
    if (high >= 0xd8 && high <= 0xdf) continue;
    ranges.push(`<${hex4(high << 8)}> <${hex4((high << 8) | 0xff)}> <${hex4(high << 8)}>`);
  }
  const blocks = [];
  for (let i = 0; i < ranges.length; i += 100) {
    const part = ranges.slice(i, i + 100);
    blocks.push(`${part.length} beginbfrange\n${part.join("\n")}\nendbfrange`);
  }
  return `/CIDInit /ProcSet findresource begin 12 dict begin begincmap
/CIDSystemInfo << /Registry (Adobe) /Ordering (UCS) /Supplement 0 >> def
/CMapName /Adobe-Identity-UCS def /CMapType 2 def
1 begincodespacerange <0000> <FFFF> endcodespacerange
${blocks.join("\n")}
endcmap CMapName currentdict /CMap defineresource pop end end`;
}

const textHex = (line) =>
  Array.from(line)
    .map((ch) => hex4(ch.charCodeAt(0)))
    .join("");

/**
 * A PDF with one page per entry of `pages` (each a list of lines), or an image-only page where an
 * entry is null. Options: `padding` bytes of an unused stream (to make a large file), `encrypted`
 * (a user password is needed, so no reader can open it without one), `deflate` (zlib, e.g. Node's
 * deflateSync) to write the pages' contents FlateDecode-compressed, as most PDF writers do, `image`
 * (a grayscale image's size and FlateDecode data) for the 2×2 image every page's resources hold.
 *
 * @param {(string[] | null)[]} pages
 * @param {{ padding?: number; encrypted?: boolean; deflate?: (bytes: Uint8Array) => Uint8Array; image?: { width: number; height: number; flate: Uint8Array } }} [options]
 * @returns {Uint8Array}
 */
export function makePdf(pages, options = {}) {
  const objects = [];
  const add = (body) => {
    objects.push(body);
    return objects.length;
  };
  const stream = (dict, data) => {
    const bytes = typeof data === "string" ? enc.encode(data) : data;
    return [`<< ${dict} /Length ${bytes.length} >>\nstream\n`, bytes, "\nendstream"];
  };
  const catalog = add(null);
  const pageTree = add(null);
  const cmap = add(stream("", toUnicodeCMap()));
  const descriptor = add(
    "<< /Type /FontDescriptor /FontName /Fixture /Flags 4 /FontBBox [0 0 1000 1000] /ItalicAngle 0 /Ascent 1000 /Descent 0 /CapHeight 1000 /StemV 80 >>",
  );
  const cidFont = add(
    `<< /Type /Font /Subtype /CIDFontType2 /BaseFont /Fixture /CIDSystemInfo << /Registry (Adobe) /Ordering (Identity) /Supplement 0 >> /FontDescriptor ${descriptor} 0 R /DW 1000 >>`,
  );
  const font = add(
    `<< /Type /Font /Subtype /Type0 /BaseFont /Fixture /Encoding /Identity-H /DescendantFonts [${cidFont} 0 R] /ToUnicode ${cmap} 0 R >>`,
  );
  const { width = 2, height = 2, flate } = options.image ?? {};
  const image = add(
    stream(
      `/Type /XObject /Subtype /Image /Width ${width} /Height ${height} /ColorSpace /DeviceGray /BitsPerComponent 8${flate ? " /Filter /FlateDecode" : ""}`,
      flate ?? "\x00\xff\xff\x00",
    ),
  );
  const kids = [];
  for (const lines of pages) {
    const content = lines
      ? `BT /F1 10 Tf 12 TL 40 800 Td ${lines.map((line) => `<${textHex(line)}> Tj T*`).join(" ")} ET`
      : "q 500 0 0 700 40 80 cm /Im1 Do Q";
    const contents = add(options.deflate ? stream("/Filter /FlateDecode", options.deflate(enc.encode(content))) : stream("", content));
    kids.push(
      add(
        `<< /Type /Page /Parent ${pageTree} 0 R /MediaBox [0 0 595 842] /Resources << /Font << /F1 ${font} 0 R >> /XObject << /Im1 ${image} 0 R >> >> /Contents ${contents} 0 R >>`,
      ),
    );
  }
  objects[catalog - 1] = `<< /Type /Catalog /Pages ${pageTree} 0 R >>`;
  objects[pageTree - 1] = `<< /Type /Pages /Kids [${kids.map((k) => `${k} 0 R`).join(" ")}] /Count ${kids.length} >>`;
  if (options.padding) {
    const filler = new Uint8Array(options.padding);
    for (let i = 0; i < filler.length; i++) filler[i] = (i * 2654435761) >>> 24;
    // As large files are large: an image (which text extraction never decodes), here referenced by nothing.
    add(stream(`/Type /XObject /Subtype /Image /Width 1 /Height ${filler.length} /ColorSpace /DeviceGray /BitsPerComponent 8`, filler));
  }
  const id = "0123456789ABCDEF0123456789ABCDEF";
  const encrypt = options.encrypted ? add(`<< /Filter /Standard /V 1 /R 2 /O <${"5A".repeat(32)}> /U <${"A5".repeat(32)}> /P -44 >>`) : 0;

  const chunks = [enc.encode("%PDF-1.7\n%\xe2\xe3\xcf\xd3\n")];
  let length = chunks[0].length;
  const offsets = [];
  const push = (part) => {
    const bytes = typeof part === "string" ? enc.encode(part) : part;
    chunks.push(bytes);
    length += bytes.length;
  };
  objects.forEach((body, i) => {
    offsets.push(length);
    push(`${i + 1} 0 obj\n`);
    for (const part of Array.isArray(body) ? body : [body]) push(part);
    push("\nendobj\n");
  });
  const xref = length;
  push(`xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`);
  for (const offset of offsets) push(`${String(offset).padStart(10, "0")} 00000 n \n`);
  push(
    `trailer\n<< /Size ${objects.length + 1} /Root ${catalog} 0 R /ID [<${id}> <${id}>]${encrypt ? ` /Encrypt ${encrypt} 0 R` : ""} >>\nstartxref\n${xref}\n%%EOF\n`,
  );
  const out = new Uint8Array(length);
  let at = 0;
  for (const chunk of chunks) {
    out.set(chunk, at);
    at += chunk.length;
  }
  return out;
}
