import { describe, expect, it } from "vitest";
import { makePdf } from "../../scripts/make-pdf.mjs";
import { htmlBytes, multipart, pdfBytes, pngBytes, textFields } from "../fixtures/files";
import { call, handleApi, registered } from "./api-helpers";
import { testCaller, until } from "./helpers";

// The content API (app/api/contents.ts): uploading whole or in resumable parts, reading, editing,
// serving with Range and deleting an item, a PDF's text read through the queue, and the refusals.

describe("the content API", () => {
  async function multipartBody(parts: Parameters<typeof multipart>[0]) {
    const { body, contentType } = multipart(parts);
    return { body: await new Response(body).arrayBuffer(), type: contentType };
  }

  it("reads an uploaded PDF's text through the queue: its owner sees the state, search answers the passage and page", async () => {
    const { res } = await registered();
    const token = String(res.json.data?.access_token);
    const pdf = makePdf([["Contents"], ["Method"], ["We found the glimmerwort effect here."]]);
    const raw = await multipartBody([
      ...textFields(),
      { name: "thumbnail", filename: "t.png", type: "image/png", body: pngBytes() },
      { name: "file", filename: "paper.pdf", type: "application/pdf", body: pdf },
    ]);
    const id = ((await call("POST", "/contents", { token, raw })).json.data as { id: number }).id;
    const text = await until(async () => {
      const content = (await call("GET", `/contents/${id}`, { token })).json.data?.content as { text: { state: string } } | undefined;
      return content?.text.state === "done" && content.text;
    });
    expect(text).toEqual({ state: "done", note: null, pages: 3, page_count: 3 });
    const stranger = String((await registered()).res.json.data?.access_token);
    expect((await call("GET", `/contents/${id}`, { token: stranger })).json.data?.content).toMatchObject({ text: null });
    const found = await call("GET", "/search?q=glimmerwort", { token: stranger });
    expect(found.json.data?.results).toEqual([
      expect.objectContaining({ id, passage: { text: "We found the \u0001glimmerwort\u0002 effect here.", page: 3 } }),
    ]);
  });

  it("uploads, reads, edits, serves with Range and deletes a document", async () => {
    const { res } = await registered();
    const token = String(res.json.data?.access_token);
    const raw = await multipartBody([
      ...textFields(),
      { name: "thumbnail", filename: "t.png", type: "image/png", body: pngBytes() },
      { name: "file", filename: "x.pdf", type: "application/pdf", body: pdfBytes() },
    ]);
    const created = await call("POST", "/contents", { token, raw });
    expect(created.status).toBe(201);
    const id = (created.json.data as { id: number }).id;
    const item = await call("GET", `/contents/${id}`, { token });
    expect(item.json.data?.content).toMatchObject({
      id,
      kind: "document",
      sdg: 6,
      title: "Clean water",
      file_url: `/api/contents/${id}/file`,
    });
    const edit = await call("PATCH", `/contents/${id}`, {
      token,
      body: { sdg: 3, title: "Edited", summary: "s", content: "c", keywords: "k", publicize: "0" },
    });
    expect(edit.json).toEqual({ code: 0, message: "Update Success", data: null });
    const request = new Request(`https://app.test/api/contents/${id}/file`, {
      headers: { Authorization: `Bearer ${token}`, Range: "bytes=0-4" },
    });
    const file = await handleApi({ ...testCaller().caller, request });
    expect(file.status).toBe(206);
    expect(await file.text()).toBe("%PDF-");
    const stranger = await registered();
    const hidden = await call("GET", `/contents/${id}`, { token: String(stranger.res.json.data?.access_token) });
    expect(hidden).toMatchObject({ status: 404, json: { code: 404 } });
    expect((await call("DELETE", `/contents/${id}`, { token })).json.code).toBe(0);
    expect((await call("GET", `/contents/${id}`, { token })).status).toBe(404);
  });

  it("refuses a file that is not a PDF or MP4 with 415 and a translated message", async () => {
    const { res } = await registered();
    const raw = await multipartBody([...textFields(), { name: "file", filename: "x.pdf", type: "application/pdf", body: htmlBytes() }]);
    const refused = await call("POST", "/contents", { token: String(res.json.data?.access_token), raw, language: "ja" });
    expect(refused).toMatchObject({ status: 415, json: { code: 415, message: "アップロードできるのはPDFまたはMP4ファイルのみです" } });
  });

  it("takes a resumable upload in parts and creates content from it", async () => {
    const { res } = await registered();
    const token = String(res.json.data?.access_token);
    const pdf = pdfBytes();
    const started = await call("POST", "/uploads", { token, body: { size: pdf.length } });
    expect(started.status).toBe(201);
    const id = String(started.json.data?.id);
    expect((await call("POST", `/uploads/${id}/complete`, { token })).status).toBe(409);
    const part = await call("PUT", `/uploads/${id}/parts/1`, { token, raw: { body: pdf.slice(), type: "application/octet-stream" } });
    expect(part.json.data).toEqual({ part: 1 });
    expect((await call("GET", `/uploads/${id}`, { token })).json.data).toMatchObject({ parts: [1] });
    expect((await call("POST", `/uploads/${id}/complete`, { token })).json.code).toBe(0);
    const raw = await multipartBody([
      ...textFields(),
      { name: "upload_id", value: id },
      { name: "thumbnail", filename: "t.png", type: "image/png", body: pngBytes() },
    ]);
    const created = await call("POST", "/contents", { token, raw });
    expect(created.status).toBe(201);
    expect((await call("GET", `/uploads/${id}`, { token })).status).toBe(404);
  });

  it("needs a token (4010)", async () => {
    expect((await call("GET", "/contents/1")).json.code).toBe(4010);
    expect((await call("POST", "/uploads", { body: { size: 10 } })).json.code).toBe(4010);
  });
});
