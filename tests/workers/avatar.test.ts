import { env } from "cloudflare:workers";
import jpegEncoder from "@jsquash/jpeg/codec/enc/mozjpeg_enc.wasm?module";
import encodeJpeg, { init as initJpegEncode } from "@jsquash/jpeg/encode";
import { beforeAll, describe, expect, it } from "vitest";
import { inspectImage } from "~/.server/content/sniff";
import { removeAvatar, setAvatar } from "~/.server/members/avatar";
import { AVATAR_SIZE } from "~/lib/limits";
import { loader as serveAvatar } from "~/routes/avatar";
import { htmlBytes, pngBytes } from "../fixtures/files";
import { newMember } from "./helpers";

const enc = new TextEncoder();
const SECRET = "GPS 35.6895N 139.6917E taken at home";

/** A real JPEG of `width`×`height`, with an EXIF segment naming a place and bytes after its end. */
async function photoWithExif(width: number, height: number) {
  const pixels = new Uint8ClampedArray(width * height * 4).map((_, i) => (i % 4 === 3 ? 255 : (i * 7) % 256));
  const jpeg = new Uint8Array(await encodeJpeg({ data: pixels, width, height, colorSpace: "srgb" } as ImageData));
  const payload = enc.encode(`Exif\0\0${SECRET}`);
  const app1 = new Uint8Array([0xff, 0xe1, (payload.length + 2) >> 8, (payload.length + 2) & 0xff, ...payload]);
  return new Uint8Array([...jpeg.subarray(0, 2), ...app1, ...jpeg.subarray(2), ...enc.encode("trailing secret")]);
}

const imageOf = (id: number) => env.DB.prepare("SELECT image FROM users WHERE id = ?").bind(id).first<string | null>("image");
const objectsOf = async (id: number) => (await env.FILES.list({ prefix: `avatars/${id}/` })).objects.map((o) => o.key);
const stored = async (image: string) => new Uint8Array(await ((await env.FILES.get(image.slice(1))) as R2ObjectBody).arrayBuffer());
const contains = (haystack: Uint8Array, needle: Uint8Array) =>
  haystack.some((_, at) => needle.every((byte, i) => haystack[at + i] === byte));

beforeAll(() => initJpegEncode(jpegEncoder));

describe("avatars", () => {
  it("stores a photo as a new square JPEG of the configured size, with its EXIF and trailing bytes gone", async () => {
    const id = await newMember("Photographer");
    const photo = await photoWithExif(300, 200);
    expect(contains(photo, enc.encode(SECRET))).toBe(true);
    const { image, refusal } = await setAvatar(env.DB, env.FILES, id, photo);
    expect(refusal).toBeUndefined();
    expect(await imageOf(id)).toBe(image);
    const bytes = await stored(image ?? "");
    expect(inspectImage(bytes)).toEqual({ type: "image/jpeg", width: AVATAR_SIZE, height: AVATAR_SIZE });
    expect(contains(bytes, enc.encode(SECRET))).toBe(false);
    expect(contains(bytes, enc.encode("Exif"))).toBe(false);
    expect(contains(bytes, new Uint8Array([0xff, 0xe1]))).toBe(false);
    expect(contains(bytes, enc.encode("trailing secret"))).toBe(false);
  });

  it("takes a PNG, transparent or not, and answers it at its address to anyone, cached for good", async () => {
    const id = await newMember("Pixel");
    const { image } = await setAvatar(env.DB, env.FILES, id, pngBytes());
    const fetchAvatar = (address: string) => {
      const [, , member = "", file = ""] = address.split("/");
      return serveAvatar({ params: { member, file } } as Parameters<typeof serveAvatar>[0]).catch(
        (thrown) => thrown as { init: ResponseInit },
      );
    };
    const response = (await fetchAvatar(image ?? "")) as Response;
    expect(response.status).toBe(200);
    expect(response.headers.get("Content-Type")).toBe("image/jpeg");
    expect(response.headers.get("Cache-Control")).toContain("immutable");
    expect(inspectImage(new Uint8Array(await response.arrayBuffer()))?.width).toBe(AVATAR_SIZE);
    expect(await fetchAvatar(`/avatars/${id}/nothing.jpg`)).toMatchObject({ init: { status: 404 } });
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
      "a PNG claiming another size than it has": pngBytes(64, 64),
      nothing: new Uint8Array(),
    };
    for (const [what, bytes] of Object.entries(posing)) {
      expect((await setAvatar(env.DB, env.FILES, id, bytes)).refusal, what).toBe("validation.avatarType");
    }
    expect((await setAvatar(env.DB, env.FILES, id, pngBytes(100_000, 100_000))).refusal).toMatch(/^validation\.avatarPixels\|max=\d+$/);
    expect(await imageOf(id)).toBeNull();
    expect(await objectsOf(id)).toEqual([]);
  });

  it("keeps one object per member however many changes arrive at once, and none after removal", async () => {
    const id = await newMember("Changer");
    const results = await Promise.all(Array.from({ length: 5 }, () => setAvatar(env.DB, env.FILES, id, pngBytes())));
    const current = await imageOf(id);
    expect(results.map((r) => r.image)).toContain(current);
    expect(await objectsOf(id)).toEqual([current?.slice(1)]);
    await removeAvatar(env.DB, env.FILES, id);
    expect(await imageOf(id)).toBeNull();
    expect(await objectsOf(id)).toEqual([]);
  });
});
