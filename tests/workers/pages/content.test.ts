import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { uploadStatus } from "~/.server/content/chunked";
import { searchHistory } from "~/.server/search/search";
import * as retrieval from "~/routes/retrieval";
import * as upload from "~/routes/upload";
import * as uploads from "~/routes/uploads";
import { pdfBytes, pngBytes } from "../../fixtures/files";
import { newItem, newMember } from "../helpers";
import { callRoute } from "../route";
import { flashOf, type Reply, signedIn } from "./page-helpers";

// The upload form's post (one multipart request, without JavaScript), the resumable upload's
// resource (/uploads) and the search page's loader and action. Progress, the viewer and the
// results' looks stay in tests/e2e.

const FIELDS = {
  kind: "document",
  sdg: "6",
  title: "Water study",
  summary: "What we measured.",
  content: "Methods.",
  keywords: "water",
  publicize: "1",
};
const pdf = () => new File([new Uint8Array(pdfBytes())], "paper.pdf", { type: "application/pdf" });
const png = () => new File([new Uint8Array(pngBytes())], "thumb.png", { type: "image/png" });

const owned = (id: number) => env.DB.prepare("SELECT count(*) AS n FROM content WHERE owner_id = ?").bind(id).first<number>("n");
const stored = async () => {
  const [files, thumbnails] = await Promise.all([env.FILES.list({ prefix: "files/" }), env.FILES.list({ prefix: "thumbnails/" })]);
  return files.objects.length + thumbnails.objects.length;
};

describe("/upload", () => {
  it("sends a visitor to the login; gives the form a fresh key each time", async () => {
    const visitor = await callRoute(upload, { path: "/upload", form: { ...FIELDS } });
    expect([visitor.status, visitor.location]).toEqual([302, "/login?redirect=%2Fupload"]);
    const me = await signedIn();
    const one = await callRoute<{ formKey: string }>(upload, { path: "/upload", token: me.token });
    const two = await callRoute<{ formKey: string }>(upload, { path: "/upload", token: me.token });
    expect(one.data.formKey).toMatch(/^[\w-]{8,64}$/);
    expect(two.data.formKey).not.toBe(one.data.formKey);
  });

  it("makes the item and goes to it with 'Uploaded'; the same form posted twice makes one", async () => {
    const me = await signedIn();
    const client_key = crypto.randomUUID();
    const first = await callRoute(upload, {
      path: "/upload",
      token: me.token,
      form: { ...FIELDS, client_key, file: pdf(), thumbnail: png() },
    });
    expect(first.status).toBe(303);
    expect(first.location).toMatch(/^\/retrieval\/detail\?id=\d+$/);
    expect(flashOf(first)).toMatchObject({ kind: "success", key: "content.uploaded" });
    const again = await callRoute(upload, {
      path: "/upload",
      token: me.token,
      form: { ...FIELDS, client_key, file: pdf(), thumbnail: png() },
    });
    expect(again.location).toBe(first.location);
    expect(await owned(me.id)).toBe(1);
    const id = Number(/id=(\d+)/.exec(first.location ?? "")?.[1]);
    expect(await env.DB.prepare("SELECT title, sdg, publicize FROM content WHERE id = ?").bind(id).first()).toEqual({
      title: "Water study",
      sdg: 6,
      publicize: 1,
    });
  });

  it("judges every field on the first post, keeps what was typed, and stores nothing", async () => {
    const me = await signedIn();
    const before = await stored();
    // As a browser posts the form: multipart, the empty file inputs as empty, nameless files.
    const form = new FormData();
    form.append("title", "Only a title");
    for (const name of ["file", "thumbnail"]) form.append(name, new File([], "", { type: "application/octet-stream" }));
    const answer = await callRoute<{ result: Reply }>(upload, { path: "/upload", token: me.token, form });
    expect(answer.status).toBe(400);
    expect(answer.data.result.error).toMatchObject({
      summary: ["validation.fieldEmpty|field=fields.summary"],
      keywords: ["validation.fieldEmpty|field=fields.keywords"],
      file: ["validation.fieldEmpty|field=fields.file"],
      thumbnail: ["validation.fieldEmpty|field=fields.thumbnail"],
    });
    expect(answer.data.result.initialValue).toMatchObject({ title: "Only a title" });
    const noThumbnail = await callRoute<{ result: Reply }>(upload, { path: "/upload", token: me.token, form: { ...FIELDS, file: pdf() } });
    expect([noThumbnail.status, noThumbnail.data.result.error?.thumbnail]).toEqual([400, ["validation.fieldEmpty|field=fields.thumbnail"]]);
    // A post that is not multipart at all (no file can be in it) is refused as a whole.
    const plain = await callRoute<{ result: Reply }>(upload, { path: "/upload", token: me.token, form: { ...FIELDS } });
    expect([plain.status, plain.data.result.error?.[""]]).toEqual([400, ["validation.uploadFailed"]]);
    expect(await owned(me.id)).toBe(0);
    expect(await stored()).toBe(before);
  });

  it("refuses a file that is not PDF or MP4 by its bytes, whatever it is called, and keeps nothing", async () => {
    const me = await signedIn();
    const before = await stored();
    const posing = new File([new Uint8Array(pngBytes())], "paper.pdf", { type: "application/pdf" });
    const answer = await callRoute<{ result: Reply }>(upload, {
      path: "/upload",
      token: me.token,
      form: { ...FIELDS, file: posing, thumbnail: png() },
    });
    expect([answer.status, answer.data.result.error?.file]).toEqual([415, ["validation.uploadType"]]);
    expect(await owned(me.id)).toBe(0);
    expect(await stored()).toBe(before);
  });
});

describe("/uploads", () => {
  // Moved from tests/e2e/upload.spec.ts ("cancelling an upload that is missing or another member's answers 404 and removes nothing").
  it("cancelling an upload that is missing or another member's answers 404 and removes nothing", async () => {
    const me = await signedIn("Uploader");
    const other = await signedIn("Investor");
    const started = await callRoute(uploads, { path: "/uploads", json: { size: 1000 }, token: me.token, inLayout: false });
    expect(started.status).toBe(201);
    const { id } = JSON.parse(started.body) as { id: string };
    const at = (uploadId: string, token: string, method = "GET") =>
      callRoute(uploads, { path: `/uploads/${uploadId}`, method, token, params: { id: uploadId }, inLayout: false });
    expect((await at(crypto.randomUUID(), me.token, "DELETE")).status).toBe(404);
    expect((await at(id, other.token, "DELETE")).status).toBe(404);
    expect((await at(id, other.token)).status).toBe(404);
    expect((await at(id, me.token)).status).toBe(200);
    expect((await at(id, me.token, "DELETE")).status).toBe(200);
    expect(await uploadStatus(id, me.id)).toBeNull();
  });

  it("is for members only, and refuses an empty file with the field's message key, which the page shows translated", async () => {
    const visitor = await callRoute(uploads, { path: "/uploads", json: { size: 1000 }, inLayout: false });
    expect([visitor.status, visitor.location]).toEqual([302, "/login?redirect=%2Fuploads"]);
    const me = await signedIn();
    const answer = await callRoute(uploads, {
      path: "/uploads",
      json: { size: 0 },
      token: me.token,
      cookies: { language: "ja" },
      inLayout: false,
    });
    expect(answer.status).toBe(400);
    // The key, and its words in the member's language for the upload form's module to show.
    expect(JSON.parse(answer.body)).toEqual({ error: "validation.fieldEmpty|field=fields.file", message: "ファイルを入力してください" });
    // A body that is not JSON at all is refused the same way, never a 500.
    const garbled = await callRoute(uploads, { path: "/uploads", form: { size: "1000" }, token: me.token, inLayout: false });
    expect(garbled.status).toBe(400);
    expect(JSON.parse(garbled.body)).toMatchObject({ error: "validation.fieldEmpty|field=fields.file" });
    expect(await env.DB.prepare("SELECT count(*) AS n FROM uploads WHERE owner_id = ?").bind(me.id).first("n")).toBe(0);
  });
});

describe("/retrieval", () => {
  it("sends a visitor to the login with the query kept", async () => {
    const answer = await callRoute(retrieval, { path: "/retrieval?q=water&tab=members" });
    expect([answer.status, answer.location]).toEqual([302, "/login?redirect=%2Fretrieval%3Fq%3Dwater%26tab%3Dmembers"]);
  });

  it("finds an item by a word, remembers the member's own searches, and clears them with a 303", async () => {
    const me = await signedIn();
    const word = `aquifer${crypto.randomUUID().slice(0, 6)}`;
    const item = await newItem(await newMember("Author"), { title: `Deep ${word} survey` });
    const found = await callRoute<{ items: { id: number }[]; history: string[] }>(retrieval, {
      path: `/retrieval?q=${word}`,
      token: me.token,
    });
    expect(found.status).toBe(200);
    expect(found.data.items.map((hit) => hit.id)).toEqual([item]);
    expect(found.data.history).toEqual([word]);
    // A query that would be syntax to the search engine is only words.
    const odd = await callRoute<{ items: unknown[] }>(retrieval, {
      path: `/retrieval?q=${encodeURIComponent('"unclosed AND (')}`,
      token: me.token,
    });
    expect([odd.status, odd.data.items]).toEqual([200, []]);
    const cleared = await callRoute(retrieval, { path: "/retrieval", token: me.token, form: {} });
    expect([cleared.status, cleared.location]).toEqual([303, "/retrieval"]);
    expect(await searchHistory(me.id)).toEqual([]);
  });

  // Moved from tests/e2e/retrieval.spec.ts ("another site's link to a search shows the results but writes nothing into the member's history").
  it("another site's link to a search shows the results but writes nothing into the member's history", async () => {
    const me = await signedIn("Linked Reader");
    const planted = await callRoute(retrieval, {
      path: "/retrieval?q=planted%20by%20another%20site",
      token: me.token,
      headers: { "Sec-Fetch-Site": "cross-site" },
    });
    expect(planted.status).toBe(200);
    expect(await searchHistory(me.id)).not.toContain("planted by another site");
    await callRoute(retrieval, { path: "/retrieval?q=my%20own%20search", token: me.token, headers: { "Sec-Fetch-Site": "same-origin" } });
    expect(await searchHistory(me.id)).toContain("my own search");
  });
});
