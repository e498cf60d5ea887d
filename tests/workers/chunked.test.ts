import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { abortUpload, completedUpload, completeUpload, putPart, startUpload, uploadStatus } from "~/.server/content/chunked";
import { createFromMultipart } from "~/.server/content/create-from-form";
import { PART_SIZE } from "~/.server/content/receive-upload";
import { UploadRefused } from "~/.server/content/upload-errors";
import { postedOf } from "~/.server/http/body";
import { htmlBytes, mp4Bytes, multipart, pdfBytes, pngBytes, textFields } from "../fixtures/files";
import { newMember } from "./helpers";

const owner = () => newMember("O");

const slice = (bytes: Uint8Array, n: number) => bytes.slice((n - 1) * PART_SIZE, n * PART_SIZE).buffer as ArrayBuffer;

describe("the upload form posted more than once", () => {
  it("makes one item from five identical streamed posts (one form key), and keeps no file of the repeats", async () => {
    const me = await owner();
    const post = () => {
      const { body, contentType } = multipart([
        { name: "client_key", value: "upload-form-0001" },
        ...textFields({ title: "Double clicked" }),
        { name: "file", filename: "a.pdf", type: "application/pdf", body: pdfBytes("twice") },
        { name: "thumbnail", filename: "t.png", type: "image/png", body: pngBytes(8, 8) },
      ]);
      const request = new Request("https://app.test/upload", {
        method: "POST",
        body,
        headers: { "Content-Type": contentType },
        duplex: "half",
      } as RequestInit);
      return createFromMultipart(postedOf(request), me, Date.now(), (work) => void work);
    };
    const before = (await env.FILES.list()).objects.length;
    const results = await Promise.all(Array.from({ length: 5 }, post));
    expect(new Set(results.map((r) => r.id)).size).toBe(1);
    expect(await env.DB.prepare("SELECT count(*) AS n FROM content WHERE owner_id = ?").bind(me).first("n")).toBe(1);
    expect((await env.FILES.list()).objects.length - before).toBe(2); // one file and one thumbnail
  });
});

describe("resumable uploads in 8 MiB parts", () => {
  it("become exactly one item when the form naming one is posted five times at once", async () => {
    const me = await owner();
    const pdf = pdfBytes("once");
    const { id } = await startUpload(me, pdf.length, Date.now());
    await putPart(id, me, 1, pdf.slice().buffer as ArrayBuffer);
    expect(await completeUpload(id, me)).toEqual({ completed: true });
    const post = () => {
      const { body, contentType } = multipart([
        ...textFields({ title: "Posted five times" }),
        { name: "upload_id", value: id },
        { name: "thumbnail", filename: "t.png", type: "image/png", body: pngBytes(8, 8) },
      ]);
      return createFromMultipart(
        postedOf(
          new Request("https://app.test/upload", {
            method: "POST",
            body,
            headers: { "Content-Type": contentType },
            duplex: "half",
          } as RequestInit),
        ),
        me,
        Date.now(),
        (work) => void work,
      );
    };
    const results = await Promise.all(Array.from({ length: 5 }, post));
    const ids = results.map((r) => r.id);
    expect(new Set(ids).size).toBe(1);
    expect(ids[0]).toBeGreaterThan(0);
    const { n } =
      (await env.DB.prepare("SELECT count(*) AS n FROM content WHERE owner_id = ? AND title = 'Posted five times'")
        .bind(me)
        .first<{ n: number }>()) ?? {};
    expect(n).toBe(1);
  });

  it("takes parts in any order, reports what it has for resuming, and joins them", async () => {
    const me = await owner();
    const file = new Uint8Array(2 * PART_SIZE + 1000);
    file.set(mp4Bytes(), 0);
    file[file.length - 1] = 7;
    const { id, part_size } = await startUpload(me, file.length, Date.now());
    expect(part_size).toBe(PART_SIZE);
    await putPart(id, me, 1, slice(file, 1));
    await putPart(id, me, 3, slice(file, 3));
    expect((await uploadStatus(id, me))?.parts.sort()).toEqual([1, 3]);
    expect(await completeUpload(id, me)).toEqual({ completed: false, missing: [2] });
    await putPart(id, me, 2, slice(file, 2));
    expect(await completeUpload(id, me)).toEqual({ completed: true });
    const stored = await completedUpload(id, me);
    expect(stored).toMatchObject({ size: file.length, type: "video/mp4" });
    const object = await env.FILES.get(stored?.key ?? "", { range: { offset: file.length - 1, length: 1 } });
    expect(new Uint8Array(await (object as R2ObjectBody).arrayBuffer())).toEqual(Uint8Array.from([7]));
    await env.FILES.delete(stored?.key ?? "");
  });

  it("refuses a first part that is not a PDF or MP4 and drops the upload", async () => {
    const me = await owner();
    const bytes = htmlBytes();
    const { id } = await startUpload(me, bytes.length, Date.now());
    await expect(putPart(id, me, 1, bytes.slice().buffer as ArrayBuffer)).rejects.toMatchObject({
      field: "file",
      reason: "type",
    });
    expect(await uploadStatus(id, me)).toBeNull();
  });

  it("refuses more than 100 MB up front, and parts of the wrong size", async () => {
    const me = await owner();
    await expect(startUpload(me, 101 * 1024 * 1024, Date.now())).rejects.toBeInstanceOf(UploadRefused);
    const pdf = pdfBytes();
    const { id } = await startUpload(me, pdf.length, Date.now());
    await expect(putPart(id, me, 1, pdf.slice(0, 10).buffer as ArrayBuffer)).rejects.toMatchObject({ reason: "size" });
    await expect(putPart(id, me, 2, pdf.slice().buffer as ArrayBuffer)).rejects.toMatchObject({ reason: "size" });
  });

  it("is only the owner's: another member can neither see, add to nor cancel it", async () => {
    const me = await owner();
    const other = await owner();
    const pdf = pdfBytes();
    const { id } = await startUpload(me, pdf.length, Date.now());
    expect(await uploadStatus(id, other)).toBeNull();
    expect(await putPart(id, other, 1, pdf.slice().buffer as ArrayBuffer)).toBeNull();
    expect(await abortUpload(id, other)).toBe(false);
    expect(await abortUpload(id, me)).toBe(true);
  });
});
