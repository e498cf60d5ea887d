import { env } from "cloudflare:workers";
import jpegDecoder from "@jsquash/jpeg/codec/dec/mozjpeg_dec.wasm?module";
import jpegEncoder from "@jsquash/jpeg/codec/enc/mozjpeg_enc.wasm?module";
import decodeJpeg, { init as initJpegDecode } from "@jsquash/jpeg/decode";
import encodeJpeg, { init as initJpegEncode } from "@jsquash/jpeg/encode";
import pngCodec from "@jsquash/png/codec/pkg/squoosh_png_bg.wasm?module";
import encodePng, { init as initPngEncode } from "@jsquash/png/encode";
import { beforeAll, describe, expect, it } from "vitest";
import { inspectImage } from "~/.server/images/inspect";
import { avatarAt, removeAvatar, setAvatar } from "~/.server/members/avatar";
import { avatarAnswer } from "~/.server/web/files/member-files";
import { AVATAR_SIZE } from "~/lib/limits";
import { htmlBytes, pngBytes } from "../fixtures/files";
import { newMember, refusedKey } from "./helpers";

const enc = new TextEncoder();
const SECRET = "GPS 35.6895N 139.6917E taken at home";

/**
 * A real JPEG of `width`×`height`, red on the left and blue on the right, with an EXIF segment
 * (orientation `orientation`, then text naming a place) and bytes after its end.
 */
async function photoWithExif(width: number, height: number, orientation = 1) {
  const pixels = new Uint8ClampedArray(width * height * 4);
  for (let at = 0; at < pixels.length; at += 4) pixels.set((at / 4) % width < width / 2 ? [220, 30, 30, 255] : [30, 30, 220, 255], at);
  const jpeg = new Uint8Array(await encodeJpeg({ data: pixels, width, height, colorSpace: "srgb" } as ImageData));
  // TIFF, big-endian: one IFD entry, Orientation (0x0112), SHORT, count 1; no next IFD.
  const tiff = [0x4d, 0x4d, 0, 0x2a, 0, 0, 0, 8, 0, 1, 0x01, 0x12, 0, 3, 0, 0, 0, 1, 0, orientation, 0, 0, 0, 0, 0, 0];
  const payload = new Uint8Array([...enc.encode("Exif\0\0"), ...tiff, ...enc.encode(SECRET)]);
  const app1 = new Uint8Array([0xff, 0xe1, (payload.length + 2) >> 8, (payload.length + 2) & 0xff, ...payload]);
  return new Uint8Array([...jpeg.subarray(0, 2), ...app1, ...jpeg.subarray(2), ...enc.encode("trailing secret")]);
}

/** The stored avatar's pixel colour (R, G, B) at (x, y). */
async function pixelsOf(image: string) {
  const decoded = await decodeJpeg((await stored(image)).slice().buffer);
  return (x: number, y: number) => Array.from(decoded.data.subarray((y * decoded.width + x) * 4, (y * decoded.width + x) * 4 + 3));
}
const isRed = ([r = 0, , b = 0]: number[]) => r > 150 && b < 100;
const isBlue = ([r = 0, , b = 0]: number[]) => b > 150 && r < 100;

const imageOf = (id: number) => env.DB.prepare("SELECT image FROM users WHERE id = ?").bind(id).first<string | null>("image");
const objectsOf = async (id: number) => (await env.FILES.list({ prefix: `avatars/${id}/` })).objects.map((o) => o.key);
const stored = async (image: string) => new Uint8Array(await ((await env.FILES.get(image.slice(1))) as R2ObjectBody).arrayBuffer());
const contains = (haystack: Uint8Array, needle: Uint8Array) =>
  haystack.some((_, at) => needle.every((byte, i) => haystack[at + i] === byte));

beforeAll(() => Promise.all([initJpegEncode(jpegEncoder), initJpegDecode(jpegDecoder), initPngEncode(pngCodec)]));

/**
 * Issue 30's file: SOI, RST0 (which has no length), then a real JPEG whose frame header (mozjpeg writes SOF2) says 6000×6000 and,
 * where a walk that reads RST0's "length" lands, a fake 16×16 SOF0.
 */
async function hiddenFrameBomb() {
  const real = await photoWithExif(16, 16);
  const body = real.slice(2, real.length - "trailing secret".length);
  for (let at = 0; at + 9 < body.length; at++)
    if (body[at] === 0xff && [0xc0, 0xc2].includes(body[at + 1] ?? 0)) body.set([0x17, 0x70, 0x17, 0x70], at + 5); // 6000, 6000
  const landing = 2 + 2 + ((body[0] ?? 0) << 8) + (body[1] ?? 0);
  const file = new Uint8Array(landing + 20);
  file.set([0xff, 0xd8, 0xff, 0xd0]);
  file.set(body, 4);
  file.set([0xff, 0xc0, 0, 17, 8, 0, 16, 0, 16, 3, 1, 0x22, 0, 2, 0x11, 1, 3, 0x11, 1], landing);
  return file;
}

/** A PNG with a transparent left half and an opaque blue right half. */
async function halfTransparentPng(side = 64) {
  const pixels = new Uint8ClampedArray(side * side * 4);
  for (let at = 0; at < pixels.length; at += 4) {
    const right = (at / 4) % side >= side / 2;
    pixels.set(right ? [20, 40, 220, 255] : [0, 0, 0, 0], at);
  }
  return new Uint8Array(await encodePng({ data: pixels, width: side, height: side, colorSpace: "srgb" } as ImageData));
}

describe("avatars", () => {
  it("stores a photo as a new square JPEG of the configured size, with its EXIF and trailing bytes gone", async () => {
    const id = await newMember("Photographer");
    const photo = await photoWithExif(300, 200);
    expect(contains(photo, enc.encode(SECRET))).toBe(true);
    const { image } = await setAvatar(id, photo);
    expect(await imageOf(id)).toBe(image);
    const bytes = await stored(image ?? "");
    expect(inspectImage(bytes)).toEqual({ type: "image/jpeg", width: AVATAR_SIZE, height: AVATAR_SIZE });
    expect(contains(bytes, enc.encode(SECRET))).toBe(false);
    expect(contains(bytes, enc.encode("Exif"))).toBe(false);
    expect(contains(bytes, new Uint8Array([0xff, 0xe1]))).toBe(false);
    expect(contains(bytes, enc.encode("trailing secret"))).toBe(false);
  });

  it("turns a photo upright from its EXIF orientation before dropping it, taking the centre square", async () => {
    const id = await newMember("Sideways");
    const upright = await pixelsOf((await setAvatar(id, await photoWithExif(300, 200))).image ?? "");
    expect([isRed(upright(10, 128)), isBlue(upright(245, 128)), isBlue(upright(245, 10))]).toEqual([true, true, true]);
    // Orientation 6: the camera was turned a quarter clockwise; shown upright, the left (red) is on top.
    const turned = await pixelsOf((await setAvatar(id, await photoWithExif(300, 200, 6))).image ?? "");
    expect([isRed(turned(245, 10)), isBlue(turned(128, 245))]).toEqual([true, true]);
  });

  it("turns a PNG's transparent parts white, and answers the avatar at its address to anyone, cached for good", async () => {
    const id = await newMember("Pixel");
    const { image } = await setAvatar(id, await halfTransparentPng());
    const response = avatarAnswer(await avatarAt(image ?? ""));
    expect(response.status).toBe(200);
    expect(response.headers.get("Content-Type")).toBe("image/jpeg");
    expect(response.headers.get("Cache-Control")).toContain("immutable");
    const pixels = await decodeJpeg(await response.arrayBuffer());
    const at = (x: number, y: number) => Array.from(pixels.data.subarray((y * pixels.width + x) * 4, (y * pixels.width + x) * 4 + 3));
    for (const channel of at(10, 128)) expect(channel).toBeGreaterThan(245); // white, not black
    expect(at(245, 128)[2]).toBeGreaterThan(200); // blue stays blue
  });

  it("answers 404, never cached, for any other address under /avatars, traversals included", async () => {
    const id = await newMember("Looker");
    await setAvatar(id, pngBytes());
    for (const path of [
      `/avatars/${id}/nothing.jpg`,
      `/avatars/${id}/..%2F..%2Fverification%2Fx`,
      `/avatars/${id}/../x.jpg`,
      "/avatars/me/a.jpg",
    ]) {
      const response = avatarAnswer(await avatarAt(path));
      expect(response.status, path).toBe(404);
      expect(response.headers.get("Cache-Control"), path).toBe("no-store");
    }
  });

  it("refuses files posing as PNG or JPG, and a pixel bomb before decoding it, storing nothing", async () => {
    const id = await newMember("Impostor");
    const png = pngBytes();
    const jpeg = await photoWithExif(16, 16);
    const posing = {
      "a PNG header over garbage": new Uint8Array([...png.subarray(0, 33), ...enc.encode("not really image data at all")]),
      "a JPEG header over garbage": new Uint8Array([...jpeg.subarray(0, 200), ...new Uint8Array(400).fill(0x41)]),
      "a GIF": enc.encode("GIF89a\x01\x00\x01\x00\x00\x00\x00;"),
      HTML: htmlBytes(),
      "a PNG whose header does not match its data": pngBytes(64, 64),
      nothing: new Uint8Array(),
    };
    for (const [what, bytes] of Object.entries(posing)) {
      expect(await refusedKey(setAvatar(id, bytes)), what).toBe("validation.avatarType");
    }
    expect(await refusedKey(setAvatar(id, pngBytes(100_000, 100_000)))).toMatch(/^validation\.avatarPixels\|max=\d+$/);
    expect(await imageOf(id)).toBeNull();
    expect(await objectsOf(id)).toEqual([]);
  });

  it("judges a JPEG's size as the decoder reads it: a 36-megapixel frame behind a parameterless marker is refused undecoded", async () => {
    const bomb = await hiddenFrameBomb();
    expect(inspectImage(bomb)).toEqual({ type: "image/jpeg", width: 6000, height: 6000 });
    const id = await newMember("Bomber");
    expect(await refusedKey(setAvatar(id, bomb))).toMatch(/^validation\.avatarPixels\|max=\d+$/);
    // The PNG and WebP equivalents: a PNG says its size in its first chunk, which is what the decoder
    // reads; WebP is never decoded here.
    expect(await refusedKey(setAvatar(id, pngBytes(6000, 6000)))).toMatch(/^validation\.avatarPixels\|/);
    // RIFF, WEBP, a VP8X chunk: flags, then the canvas's width and height less one (6000×6000).
    const webp = new Uint8Array([
      ...enc.encode("RIFF"),
      22,
      0,
      0,
      0,
      ...enc.encode("WEBPVP8X"),
      10,
      0,
      0,
      0,
      0,
      0,
      0,
      0,
      0x6f,
      0x17,
      0,
      0x6f,
      0x17,
      0,
    ]);
    expect(await refusedKey(setAvatar(id, webp))).toBe("validation.avatarType");
    // Markers libjpeg reads differently from a walk by lengths (bytes between segments, a stuffed FF 00,
    // a second SOI or SOF, a reserved marker) make no image at all.
    const small = await photoWithExif(16, 16);
    for (const odd of [
      [0xff, 0xd8, 0x41, ...small.subarray(2)],
      [0xff, 0xd8, 0xff, 0x00, ...small.subarray(2)],
      [0xff, 0xd8, 0xff, 0xd8, ...small.subarray(2)],
      [0xff, 0xd8, 0xff, 0xde, 0, 2, ...small.subarray(2)],
    ])
      expect(inspectImage(new Uint8Array(odd))).toBeNull();
    expect(inspectImage(new Uint8Array([...small.subarray(0, 2), 0xff, 0xff, 0xff, 0xd0, ...small.subarray(2)]))).toMatchObject({
      width: 16,
    });
    expect(await imageOf(id)).toBeNull();
  });

  it("leaves no object behind when the account went while the image was being made", async () => {
    const id = await newMember("Gone");
    await env.DB.prepare("UPDATE users SET deleted_at = 1 WHERE id = ?").bind(id).run();
    await expect(setAvatar(id, pngBytes())).rejects.toThrow();
    expect(await objectsOf(id)).toEqual([]);
  });

  it("keeps one object per member however many changes arrive at once, and none after removal", async () => {
    const id = await newMember("Changer");
    const results = await Promise.all(Array.from({ length: 5 }, () => setAvatar(id, pngBytes())));
    const current = await imageOf(id);
    expect(results.map((r) => r.image)).toContain(current);
    expect(await objectsOf(id)).toEqual([current?.slice(1)]);
    await removeAvatar(id);
    expect(await imageOf(id)).toBeNull();
    expect(await objectsOf(id)).toEqual([]);
  });
});
