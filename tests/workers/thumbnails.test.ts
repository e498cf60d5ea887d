import { env } from "cloudflare:workers";
import jpegEncoder from "@jsquash/jpeg/codec/enc/mozjpeg_enc.wasm?module";
import encodeJpeg, { init as initJpegEncode } from "@jsquash/jpeg/encode";
import webpDecoder from "@jsquash/webp/codec/dec/webp_dec.wasm?module";
import decodeWebp, { init as initWebpDecode } from "@jsquash/webp/decode";
import { beforeAll, describe, expect, it } from "vitest";
import { deleteContent, findContent } from "~/.server/content/content";
import { makeVariants, variantKey, variantKeys } from "~/.server/content/thumbnail-variants";
import { inspectImage } from "~/.server/images/inspect";
import { serveContentFile } from "~/.server/web/files/serve-file";
import { THUMBNAIL_WIDTHS } from "~/lib/limits";
import { pngBytes } from "../fixtures/files";
import { newItem, newMember } from "./helpers";

beforeAll(() => Promise.all([initJpegEncode(jpegEncoder), initWebpDecode(webpDecoder)]));

/** A real JPEG photo of width×height. */
async function photo(width: number, height: number) {
  const pixels = new Uint8ClampedArray(width * height * 4).fill(180);
  return new Uint8Array(await encodeJpeg({ data: pixels, width, height, colorSpace: "srgb" } as ImageData));
}

/** An item of `owner` whose thumbnail is these bytes. */
async function itemWithThumbnail(owner: number, bytes: Uint8Array, type: string, publicize: 0 | 1 = 1) {
  const id = await newItem(owner, { publicize });
  const key = `thumbnails/test/${crypto.randomUUID()}`;
  await env.FILES.put(key, bytes);
  await env.DB.prepare("UPDATE content SET thumbnail_key = ?, thumbnail_type = ? WHERE id = ?").bind(key, type, id).run();
  return { id, key };
}

const fetchThumbnail = async (owner: number, id: number, query = "", accept = "*/*") => {
  const item = await findContent(id, owner);
  if (!item) throw new Error("no item");
  const request = new Request(`https://app.test/files/${id}/thumbnail${query}`, { headers: { Accept: accept } });
  const response = await serveContentFile(request, item, "thumbnail");
  return { response, bytes: new Uint8Array(await response.arrayBuffer()) };
};

describe("thumbnail variants", () => {
  it("serves a card-sized 16:9 JPEG for ?w=, made once, kept a day by the member's browser for a publicized item only", async () => {
    const owner = await newMember("Photographer");
    const sent = await photo(1600, 1200);
    const { id, key } = await itemWithThumbnail(owner, sent, "image/jpeg");
    const small = await fetchThumbnail(owner, id, "?w=400");
    expect(small.response.headers.get("Content-Type")).toBe("image/jpeg");
    expect(inspectImage(small.bytes)).toMatchObject({ width: 400, height: 225 });
    expect(small.bytes.length).toBeLessThan(sent.length);
    expect(small.response.headers.get("Cache-Control")).toBe("private, max-age=86400");
    // A dense screen's width, and any width between, gets the next variant up.
    expect(inspectImage((await fetchThumbnail(owner, id, "?w=700")).bytes)).toMatchObject({ width: 800, height: 450 });
    // No width: the thumbnail as sent, private to members' browsers as before.
    const original = await fetchThumbnail(owner, id);
    expect(original.bytes).toEqual(sent);
    expect(original.response.headers.get("Cache-Control")).toBe("private, max-age=3600");
    for (const width of THUMBNAIL_WIDTHS)
      for (const type of ["image/webp", "image/jpeg"] as const)
        expect(await env.FILES.head(variantKey(key, width, type)), `${width} ${type}`).not.toBeNull();

    const hidden = await itemWithThumbnail(owner, sent, "image/jpeg", 0);
    expect((await fetchThumbnail(owner, hidden.id, "?w=400")).response.headers.get("Cache-Control")).toBe("private, no-store");
  });

  it("serves WebP to a browser that takes it, JPEG to one that does not, at one address that varies by Accept", async () => {
    const owner = await newMember("Phone reader");
    const { id } = await itemWithThumbnail(owner, await photo(1200, 900), "image/jpeg");
    // What Chromium, Firefox and Safari send for an image.
    const accept = "image/avif,image/webp,image/apng,image/svg+xml,image/*,*/*;q=0.8";
    const webp = await fetchThumbnail(owner, id, "?w=400", accept);
    expect(webp.response.headers.get("Content-Type")).toBe("image/webp");
    expect(webp.response.headers.get("Vary")).toBe("Accept");
    const decoded = await decodeWebp(webp.bytes.slice().buffer);
    expect([decoded.width, decoded.height]).toEqual([400, 225]);
    const jpeg = await fetchThumbnail(owner, id, "?w=400", "image/png,image/jpeg");
    expect(jpeg.response.headers.get("Content-Type")).toBe("image/jpeg");
    expect(webp.bytes.length).toBeLessThan(jpeg.bytes.length);
    // The thumbnail as sent is one type only: no Vary.
    expect((await fetchThumbnail(owner, id, "", accept)).response.headers.get("Vary")).toBeNull();
  });

  it("serves a thumbnail too large to decode as sent, and deletes the variants with the item", async () => {
    const owner = await newMember("Panorama");
    // The header says 4000×1500 (6 MP, over the decode bound): no variant is drawn.
    const wide = pngBytes(4000, 1500);
    const { id: wideId, key: wideKey } = await itemWithThumbnail(owner, wide, "image/png");
    expect(await makeVariants(wideKey)).toBe(false);
    const served = await fetchThumbnail(owner, wideId, "?w=400");
    expect(served.response.headers.get("Content-Type")).toBe("image/png");
    expect(served.bytes).toEqual(wide);
    await deleteContent(wideId, owner);
    for (const gone of [wideKey, ...variantKeys(wideKey)]) expect(await env.FILES.head(gone), gone).toBeNull();

    const { id, key } = await itemWithThumbnail(owner, await photo(640, 480), "image/jpeg");
    expect(await makeVariants(key)).toBe(true);
    await deleteContent(id, owner);
    for (const gone of [key, ...variantKeys(key)]) expect(await env.FILES.head(gone), gone).toBeNull();
  });
});
