import { describe, expect, it } from "vitest";
import { BODY_MAX_BYTES, boundedBody } from "~/.server/http/body";
import { handleApi } from "~/api/router";
import { AVATAR_UPLOAD_MB } from "~/lib/limits";
import { testCaller } from "./helpers";

/** A body of `total` bytes (1 MB by default) that counts what was pulled from it. */
function endless(total = 1024 * 1024) {
  const state = { pulled: 0 };
  const chunk = new Uint8Array(64 * 1024).fill(97);
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (state.pulled >= total) return controller.close();
      state.pulled += chunk.byteLength;
      controller.enqueue(chunk);
    },
  });
  return { body, state };
}

const post = (path: string, body: BodyInit | ReadableStream, headers: Record<string, string> = {}) =>
  new Request(`http://127.0.0.1${path}`, { method: "POST", body, headers, duplex: "half" } as RequestInit);

describe("request bodies", () => {
  it("of an upload refused before it is read (no session) are drained, so the client reads the 401 instead of a reset", async () => {
    const total = 20 * 1024 * 1024;
    const { body, state } = endless(total);
    const request = post("/api/contents", body, { "Content-Type": "multipart/form-data; boundary=x" });
    const response = await handleApi({ ...testCaller().caller, request });
    expect(response.status).toBe(401);
    expect(state.pulled).toBe(total);
  });

  it("are refused past the limit, the rest read to the end and dropped so the client hears the answer", async () => {
    const { body, state } = endless();
    expect(BODY_MAX_BYTES).toBeLessThan(1024 * 1024);
    expect(await boundedBody(post("/api/users/login", body, { "Content-Type": "application/json" }))).toBeNull();
    expect(state.pulled).toBe(1024 * 1024);
  });

  it("take an avatar's size on the settings page and the avatar call only, and refuse past it", async () => {
    const MB = 1024 * 1024;
    for (const path of ["/personal/Setting", "/personal/Setting.data", "/api/settings/avatar"]) {
      expect((await boundedBody(post(path, endless(2 * MB).body)))?.body, path).toBeTruthy();
      expect(await boundedBody(post(path, endless((AVATAR_UPLOAD_MB + 1) * MB).body)), path).toBeNull();
    }
    expect(await boundedBody(post("/personal", endless(2 * MB).body))).toBeNull();
  });

  it("are refused when their declared length is over the limit, whatever arrives", async () => {
    const { body } = endless(64 * 1024);
    expect(await boundedBody(post("/login", body, { "Content-Length": String(80 * 1024 * 1024) }))).toBeNull();
  });

  it("pass whole under the limit, and file uploads pass untouched to their own streaming limits", async () => {
    const form = "email=a%40b.example&password=secret";
    const bounded = await boundedBody(post("/login", form, { "Content-Type": "application/x-www-form-urlencoded" }));
    expect(await bounded?.text()).toBe(form);
    const upload = post("/upload", endless().body);
    expect(await boundedBody(upload)).toBe(upload);
    // A verification's photos, posted as a page form with JavaScript (React Router adds ".data") or without.
    for (const path of ["/personal/verification", "/personal/verification.data", "/api/verification"]) {
      const photos = post(path, endless().body);
      expect(await boundedBody(photos), path).toBe(photos);
    }
  });

  it("let a new version's multipart post stream like an upload, and keep the same page's other posts bounded", async () => {
    const multipart = { "Content-Type": "multipart/form-data; boundary=x" };
    for (const path of ["/retrieval/detail/version", "/api/contents/7/versions"]) {
      const version = post(path, endless().body, multipart);
      expect(await boundedBody(version), path).toBe(version);
    }
    const comment = post("/retrieval/detail", endless(2 * 1024 * 1024).body, { "Content-Type": "application/x-www-form-urlencoded" });
    expect(await boundedBody(comment)).toBeNull();
    // The item's page itself takes no file any more: a multipart post to it is bounded too.
    const misdirected = post("/retrieval/detail", endless(2 * 1024 * 1024).body, multipart);
    expect(await boundedBody(misdirected)).toBeNull();
  });
});
