import { env } from "cloudflare:workers";
import { parse as parseBibtex } from "@retorquere/bibtex-parser";
import { describe, expect, it } from "vitest";
import { deleteAccount } from "~/.server/accounts/delete-account";
import { exportData } from "~/.server/accounts/export-data";
import { createSession } from "~/.server/accounts/sessions";
import { deleteContent } from "~/.server/content/content";
import { searchContent, searchQuerySchema } from "~/.server/search/search";
import { addComment, setFollow, setLike } from "~/.server/social/social";
import { VERSIONS_MAX } from "~/lib/limits";
import { makePdf } from "../../scripts/make-pdf.mjs";
import { mp4Bytes, multipart, pngBytes, textFields } from "../fixtures/files";
import { apiCall as call, apiJson as json } from "./api-call";
import { newMember, testCaller, until } from "./helpers";
import { account, PASSWORD } from "./pages/page-helpers";

// Versions (issue 35) through the API and the services the page uses: numbering under concurrent
// posts, repeats, the latest version's text alone in search, earlier files at their addresses,
// what survives a version and what a deletion leaves in R2.

async function body(parts: Parameters<typeof multipart>[0]) {
  const { body, contentType } = multipart(parts);
  return { body: await new Response(body).arrayBuffer(), type: contentType };
}

const pdf = (word: string) => makePdf([[`The ${word} measurements of the wells.`]]);

async function uploaded(word = "firstword") {
  const owner = await newMember("Versioner");
  const token = await createSession(owner, Date.now());
  const raw = await body([
    ...textFields({ title: `Versioned ${crypto.randomUUID().slice(0, 6)}` }),
    { name: "thumbnail", filename: "t.png", type: "image/png", body: pngBytes() },
    { name: "file", filename: "d.pdf", type: "application/pdf", body: pdf(word) },
  ]);
  const created = await json(await call(token, "POST", "/contents", raw));
  return { owner, token, id: Number(created.data?.id) };
}

async function addVersion(
  token: string,
  id: number,
  fields: Record<string, string>,
  file: Uint8Array = pdf("secondword"),
  type = "application/pdf",
) {
  const raw = await body([
    ...Object.entries(fields).map(([name, value]) => ({ name, value })),
    { name: "file", filename: type === "application/pdf" ? "v.pdf" : "v.mp4", type, body: file },
  ]);
  const response = await call(token, "POST", `/contents/${id}/versions`, raw);
  return { status: response.status, json: await json(response) };
}

const textDone = (id: number) =>
  until(async () => (await env.DB.prepare("SELECT text_state FROM content WHERE id = ?").bind(id).first<string>("text_state")) === "done");

describe("an item's versions", () => {
  it("number themselves, keep every earlier file at its address, and carry their note, licence and DOI", async () => {
    const { token, id } = await uploaded();
    const v1 = new Uint8Array(await (await call(token, "GET", `/contents/${id}/file`)).arrayBuffer());
    const added = await addVersion(token, id, { note: "Corrected figure 2", license: "MIT", doi: "10.5555/v2.of.it" });
    expect([added.status, added.json.data]).toEqual([201, { number: 2 }]);
    await addVersion(token, id, { note: "Third" });
    const item = (await json(await call(token, "GET", `/contents/${id}`))).data?.content as { version: number; license: string };
    expect(item).toMatchObject({ version: 3, license: "MIT" });
    const versions = (await json(await call(token, "GET", `/contents/${id}/versions`))).data?.versions as Record<string, unknown>[];
    expect(versions.map((v) => [v.number, v.note, v.license, v.doi])).toEqual([
      [3, "Third", "MIT", null],
      [2, "Corrected figure 2", "MIT", "10.5555/v2.of.it"],
      [1, "", "CC-BY-4.0", null],
    ]);
    // A link to version 1 still serves version 1's file after version 3.
    const old = await call(token, "GET", `/contents/${id}/versions/1/file`);
    expect(new Uint8Array(await old.arrayBuffer())).toEqual(v1);
    const latest = new Uint8Array(await (await call(token, "GET", `/contents/${id}/file`)).arrayBuffer());
    expect(latest).not.toEqual(v1);
    expect((await call(token, "GET", `/contents/${id}/versions/4/file`)).status).toBe(404);

    // Citations name the version, and can cite an earlier one with its licence.
    const cite = async (query: string) => String((await json(await call(token, "GET", `/contents/${id}/citation?${query}`))).data?.text);
    expect(JSON.parse(await cite("format=csl-json"))[0]).toMatchObject({ version: "3", license: "MIT" });
    expect(JSON.parse(await cite("format=csl-json&version=1"))[0]).toMatchObject({ version: "1", license: "CC-BY-4.0" });
    expect(JSON.parse(await cite("format=csl-json&version=2"))[0]).toMatchObject({ version: "2", DOI: "10.5555/v2.of.it" });
    const bib = parseBibtex(await cite("format=bibtex&version=1"));
    expect(bib.errors).toEqual([]);
    expect(bib.entries[0]?.fields.version).toBe("1");
    expect(await cite("format=apa&version=2")).toContain("(Version 2)");
    expect(await cite("format=harvard")).toContain("(Version 3)");
  });

  it("posted twice at once become two versions, never two of one number; the same form key twice makes one", async () => {
    const { token, id } = await uploaded();
    const both = await Promise.all([addVersion(token, id, { note: "A" }), addVersion(token, id, { note: "B" })]);
    expect(both.map((b) => b.json.data?.number).sort()).toEqual([2, 3]);
    const again = await Promise.all([
      addVersion(token, id, { note: "Same", client_key: "version-key-1" }),
      addVersion(token, id, { note: "Same", client_key: "version-key-1" }),
    ]);
    expect(again.map((a) => a.json.data?.number)).toEqual([4, 4]);
    const count = await env.DB.prepare("SELECT count(*) AS n FROM content_versions WHERE content_id = ?").bind(id).first<number>("n");
    expect(count).toBe(4);
  });

  it("refuse another kind of file and a 51st version, storing nothing", async () => {
    const { token, id } = await uploaded();
    const mismatch = await addVersion(token, id, { note: "A video" }, mp4Bytes(), "video/mp4");
    expect([mismatch.status, mismatch.json.errors?.file]).toEqual([400, ["A document must be a PDF and a video an MP4"]]);
    const empty = await addVersion(token, id, { note: " " });
    expect(empty.status).toBe(400);
    await env.DB.prepare(
      `INSERT INTO content_versions (content_id, number, title, file_key, file_size, file_type, thumbnail_key, thumbnail_type, created_at)
       SELECT content_id, number + n.value, title, file_key || '-' || n.value, file_size, file_type, thumbnail_key, thumbnail_type, created_at
       FROM content_versions, json_each(?) n WHERE content_id = ? AND number = 1`,
    )
      .bind(JSON.stringify(Array.from({ length: VERSIONS_MAX - 1 }, (_, i) => i + 1)), id)
      .run();
    const full = await addVersion(token, id, { note: "One too many" });
    expect(full.status).toBe(409);
    expect(await env.DB.prepare("SELECT max(number) AS n FROM content_versions WHERE content_id = ?").bind(id).first<number>("n")).toBe(50);
  });

  it("search finds the latest version's text and not an earlier one's; likes, comments and followers stay and hear of it", async () => {
    const first = `alpha${crypto.randomUUID().slice(0, 6)}`;
    const second = `omega${crypto.randomUUID().slice(0, 6)}`;
    const { owner, token, id } = await uploaded(first);
    await textDone(id);
    const reader = await newMember("Reader");
    const found = async (word: string) =>
      (await searchContent(searchQuerySchema.parse({ q: word }), reader, Date.now())).hits.map((hit) => hit.id);
    expect(await found(first)).toEqual([id]);
    await setLike(reader, id, true, Date.now());
    await addComment(reader, id, "Keep the old figure?", Date.now());
    await setFollow(reader, owner, true, Date.now());

    await addVersion(token, id, { note: "New measurements" }, pdf(second));
    // The earlier text leaves search at once; the new one arrives with its job.
    expect(await found(first)).toEqual([]);
    await textDone(id);
    expect(await found(second)).toEqual([id]);
    expect(await found(first)).toEqual([]);

    const item = (await json(await call(token, "GET", `/contents/${id}`))).data?.content as { likes: number };
    expect(item.likes).toBe(1);
    const comments = await env.DB.prepare("SELECT count(*) AS n FROM comments WHERE content_id = ?").bind(id).first<number>("n");
    expect(comments).toBe(1);
    const told = await until(() =>
      env.DB.prepare(
        "SELECT event FROM notifications WHERE user_id = ? AND subject_id = ? AND kind = 'followed_upload' AND event = 'version'",
      )
        .bind(reader, id)
        .first<string>("event"),
    );
    expect(told).toBe("version");
  });

  it("deleting the item deletes every version's objects in R2 and its rows", async () => {
    const { owner, token, id } = await uploaded();
    await addVersion(token, id, { note: "Two" });
    const thumbnail = await body([
      { name: "note", value: "Three, with a thumbnail" },
      { name: "thumbnail", filename: "t.png", type: "image/png", body: pngBytes(2, 2) },
      { name: "file", filename: "v.pdf", type: "application/pdf", body: pdf("third") },
    ]);
    expect((await call(token, "POST", `/contents/${id}/versions`, thumbnail)).status).toBe(201);
    const { results } = await env.DB.prepare("SELECT file_key, thumbnail_key FROM content_versions WHERE content_id = ?")
      .bind(id)
      .all<{ file_key: string; thumbnail_key: string }>();
    const keys = [...new Set(results.flatMap((r) => [r.file_key, r.thumbnail_key]))];
    expect(keys).toHaveLength(5);
    for (const key of keys) expect(await env.FILES.head(key)).not.toBeNull();
    expect(await deleteContent(id, owner)).toBe(true);
    for (const key of keys) expect((await env.FILES.list({ prefix: key })).objects, key).toEqual([]);
    expect(await env.DB.prepare("SELECT count(*) AS n FROM content_versions WHERE content_id = ?").bind(id).first<number>("n")).toBe(0);
  });

  it("deleting the account deletes every version's objects too; the export lists the versions", async () => {
    const member = await account();
    const raw = await body([
      ...textFields({ title: "Account's work" }),
      { name: "thumbnail", filename: "t.png", type: "image/png", body: pngBytes() },
      { name: "file", filename: "d.pdf", type: "application/pdf", body: pdf("one") },
    ]);
    const id = Number((await json(await call(member.token, "POST", "/contents", raw))).data?.id);
    await addVersion(member.token, id, { note: "Two", license: "MIT" });
    const exported = JSON.parse(await new Response(exportData(member.id, Date.now(), "https://app.test")).text()) as {
      versions: Record<string, unknown>[];
    };
    expect(exported.versions.map((v) => [v.content_id, v.number, v.note, v.license])).toEqual([
      [id, 1, "", "CC-BY-4.0"],
      [id, 2, "Two", "MIT"],
    ]);
    const { results } = await env.DB.prepare("SELECT file_key FROM content_versions WHERE content_id = ?")
      .bind(id)
      .all<{ file_key: string }>();
    expect(results).toHaveLength(2);
    await deleteAccount(member.id, PASSWORD, testCaller().caller);
    for (const { file_key } of results) expect((await env.FILES.list({ prefix: file_key })).objects, file_key).toEqual([]);
  });
});
