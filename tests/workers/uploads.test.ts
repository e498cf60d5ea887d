import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { addVersionFromMultipart } from "~/.server/content/add-version-form";
import { createContent, deleteContent, findContent } from "~/.server/content/content";
import { createFromMultipart } from "~/.server/content/create-from-form";
import { fundingOf } from "~/.server/content/funding";
import { MAX_FILE_BYTES, receiveUpload } from "~/.server/content/receive-upload";
import { looksLikeMp4, looksLikePdfHead } from "~/.server/content/sniff";
import { UploadRefused } from "~/.server/content/upload-errors";
import { postedOf } from "~/.server/http/body";
import { inspectImage } from "~/.server/images/inspect";
import { attempt, Refused } from "~/.server/refused";
import { serveContentFile } from "~/.server/web/files/serve-file";
import { contentFieldsSchema } from "~/lib/schemas/content";
import { bigPdfStream, elfBytes, htmlBytes, mp4Bytes, multipart, pdfBytes, pngBytes, textFields } from "../fixtures/files";
import { newMember } from "./helpers";

const upload = (parts: Parameters<typeof multipart>[0]) => {
  const { body, contentType } = multipart(parts);
  return new Request("https://app.test/upload", { method: "POST", body, headers: { "Content-Type": contentType } });
};

async function storedKeys() {
  const listing = await env.FILES.list();
  return listing.objects.map((o) => o.key).sort();
}

async function refusal(request: Request): Promise<UploadRefused> {
  try {
    await receiveUpload(postedOf(request));
  } catch (error) {
    if (error instanceof UploadRefused) return error;
    throw error;
  }
  throw new Error("expected the upload to be refused");
}

const member = () => newMember("Owner");

describe("file types are judged by content", () => {
  it("recognises PDF, MP4, PNG and JPEG by their bytes", () => {
    expect(looksLikePdfHead(pdfBytes())).toBe(true);
    expect(looksLikeMp4(mp4Bytes())).toBe(true);
    expect(looksLikeMp4(htmlBytes())).toBe(false);
    expect(inspectImage(pngBytes(640, 480))).toEqual({ type: "image/png", width: 640, height: 480 });
    expect(inspectImage(pdfBytes())).toBeNull();
  });

  it.each([
    ["a renamed executable", "report.pdf", "application/pdf", elfBytes()],
    ["an HTML file posing as MP4", "video.mp4", "video/mp4", htmlBytes()],
    ["a PNG posing as PDF", "paper.pdf", "application/pdf", pngBytes()],
    ["a PDF without its end", "cut.pdf", "application/pdf", pdfBytes().subarray(0, 40)],
  ])("refuses %s and keeps nothing", async (_what, filename, type, bytes) => {
    const before = await storedKeys();
    const error = await refusal(
      upload([
        ...textFields(),
        { name: "thumbnail", filename: "t.png", type: "image/png", body: pngBytes() },
        { name: "file", filename, type, body: bytes },
      ]),
    );
    expect(error).toMatchObject({ field: "file", reason: "type" });
    expect(await storedKeys()).toEqual(before);
  });

  it("refuses a thumbnail that is not PNG or JPG, or too large in pixels", async () => {
    const before = await storedKeys();
    const wrong = await refusal(upload([{ name: "thumbnail", filename: "t.png", type: "image/png", body: htmlBytes() }]));
    expect(wrong).toMatchObject({ field: "thumbnail", reason: "type" });
    const huge = await refusal(upload([{ name: "thumbnail", filename: "t.png", type: "image/png", body: pngBytes(5000, 10) }]));
    expect(huge).toMatchObject({ field: "thumbnail", reason: "image-size" });
    expect(await storedKeys()).toEqual(before);
  });
});

describe("the 100 MB limit", () => {
  it("stops reading a 101 MB stream at the limit, aborts the parts and keeps nothing", async () => {
    const before = await storedKeys();
    const rows = await env.DB.prepare("SELECT count(*) AS n FROM content").first<{ n: number }>();
    const error = await refusal(
      upload([...textFields(), { name: "file", filename: "big.pdf", type: "application/pdf", body: bigPdfStream(101 * 1024 * 1024) }]),
    );
    expect(error).toMatchObject({ field: "file", reason: "size" });
    expect(await storedKeys()).toEqual(before);
    expect(await env.DB.prepare("SELECT count(*) AS n FROM content").first<{ n: number }>()).toEqual(rows);
  });

  it("refuses at once a request that declares more than the limit", async () => {
    const { body, contentType } = multipart(textFields());
    const request = new Request("https://app.test/upload", {
      method: "POST",
      body,
      headers: { "Content-Type": contentType, "Content-Length": String(MAX_FILE_BYTES * 2) },
    });
    expect(await refusal(request)).toMatchObject({ field: "file", reason: "size" });
  });
});

describe("the end of the form", () => {
  it("takes the CRLF browsers send after the closing delimiter, even when it arrives on its own", async () => {
    const { body, contentType } = multipart([
      ...textFields({}),
      { name: "thumbnail", filename: "t.png", type: "image/png", body: pngBytes() },
      { name: "file", filename: "a.pdf", type: "application/pdf", body: pdfBytes() },
    ]);
    const chunks: Uint8Array[] = [];
    const reader = body.getReader();
    for (let next = await reader.read(); !next.done; next = await reader.read()) chunks.push(next.value);
    const last = chunks.pop() ?? new Uint8Array(0); // "--boundary--\r\n"
    const split = new ReadableStream<Uint8Array>({
      start(controller) {
        for (const chunk of [...chunks, last.subarray(0, -2), last.subarray(-2)]) controller.enqueue(chunk);
        controller.close();
      },
    });
    const request = new Request("https://app.test/upload", { method: "POST", body: split, headers: { "Content-Type": contentType } });
    const received = await receiveUpload(postedOf(request));
    expect(received.fields.title).toBe("Clean water");
    expect(received.file).toMatchObject({ type: "application/pdf" });
    expect(received.thumbnail).toMatchObject({ type: "image/png" });
  });
});

describe("an account deleted while its upload arrives", () => {
  it("keeps nothing of an upload that finishes after its account was deleted", async () => {
    const owner = await newMember("Gone mid-upload");
    const before = await storedKeys();
    // The deletion's batch commits while the post is still arriving: the item would have no owner.
    await env.DB.prepare("UPDATE users SET deleted_at = ? WHERE id = ?").bind(Date.now(), owner).run();
    const request = upload([
      ...textFields({}),
      { name: "thumbnail", filename: "t.png", type: "image/png", body: pngBytes() },
      { name: "file", filename: "a.pdf", type: "application/pdf", body: pdfBytes() },
    ]);
    const created = await attempt(() => createFromMultipart(postedOf(request), owner, Date.now(), () => {}));
    expect(created).toMatchObject({ status: 401, key: "notify.sessionExpired", fields: {} });
    expect(await env.DB.prepare("SELECT count(*) AS n FROM content WHERE owner_id = ?").bind(owner).first("n")).toBe(0);
    expect(await storedKeys()).toEqual(before);
  });
});

describe("the thumbnail as stored", () => {
  it("keeps the pixels and leaves out text a camera or editor wrote beside them (issue 30)", async () => {
    const png = pngBytes();
    const secret = new TextEncoder().encode("GPS 35.68N 139.69E, taken by the uploader");
    // A tEXt chunk after IHDR (the CRC is not what is judged), and bytes after IEND.
    const text = Uint8Array.from([0, 0, 0, secret.length, ...new TextEncoder().encode("tEXt"), ...secret, 0, 0, 0, 0]);
    const sent = Uint8Array.from([...png.subarray(0, 33), ...text, ...png.subarray(33), ...secret]);
    const received = await receiveUpload(
      postedOf(
        upload([
          ...textFields({}),
          { name: "thumbnail", filename: "t.png", type: "image/png", body: sent },
          { name: "file", filename: "a.pdf", type: "application/pdf", body: pdfBytes() },
        ]),
      ),
    );
    const stored = await env.FILES.get(received.thumbnail?.key ?? "");
    expect(new Uint8Array((await stored?.arrayBuffer()) ?? [])).toEqual(png);
    expect(received.thumbnail).toMatchObject({ type: "image/png", size: png.length });
  });
});

describe("stored content", () => {
  async function uploaded(publicize: "1" | "0", fileBody = pdfBytes("x".repeat(3000))) {
    const received = await receiveUpload(
      postedOf(
        upload([
          ...textFields({ publicize }),
          { name: "thumbnail", filename: "t.png", type: "image/png", body: pngBytes() },
          { name: "file", filename: "anything.bin", type: "application/octet-stream", body: fileBody },
        ]),
      ),
    );
    expect(received.fields.title).toBe("Clean water");
    expect(received.file).toMatchObject({ type: "application/pdf", size: fileBody.length });
    expect(received.thumbnail).toMatchObject({ type: "image/png" });
    const owner = await member();
    if (!received.file || !received.thumbnail) throw new Error("not stored");
    const made = await createContent(owner, contentFieldsSchema.parse(received.fields), received.file, received.thumbnail, Date.now());
    if (!made) throw new Error("the owner is gone");
    return { id: made.id, owner, bytes: fileBody };
  }

  it("answers a range request with exactly the requested bytes (206)", async () => {
    const { id, owner, bytes } = await uploaded("1");
    const item = await findContent(id, owner);
    if (!item) throw new Error("missing");
    const res = await serveContentFile(new Request(`https://app.test/files/${id}`, { headers: { Range: "bytes=5-14" } }), item, "file");
    expect(res.status).toBe(206);
    expect(res.headers.get("Content-Range")).toBe(`bytes 5-14/${bytes.length}`);
    expect(new Uint8Array(await res.arrayBuffer())).toEqual(bytes.subarray(5, 15));
    const full = await serveContentFile(new Request(`https://app.test/files/${id}`), item, "file");
    expect(full.headers.get("Content-Type")).toBe("application/pdf");
    expect(full.headers.get("Content-Disposition")).toBe(`inline; filename="research-${id}.pdf"`);
    expect(full.headers.get("X-Content-Type-Options")).toBe("nosniff");
    const etag = full.headers.get("ETag");
    await full.arrayBuffer();
    const again = await serveContentFile(
      new Request(`https://app.test/files/${id}`, { headers: { "If-None-Match": etag ?? "" } }),
      item,
      "file",
    );
    expect(again.status).toBe(304);
    const beyond = await serveContentFile(
      new Request(`https://app.test/files/${id}`, { headers: { Range: "bytes=999999-" } }),
      item,
      "file",
    );
    expect(beyond.status).toBe(416);
    expect(beyond.headers.get("Content-Range")).toBe(`bytes */${bytes.length}`);
    // The last bytes, and a range whose end is past the file's (cut to the file).
    for (const [header, from] of [
      ["bytes=-5", bytes.length - 5],
      [`bytes=${bytes.length - 3}-99999999`, bytes.length - 3],
    ] as const) {
      const part = await serveContentFile(new Request(`https://app.test/files/${id}`, { headers: { Range: header } }), item, "file");
      expect(part.status, header).toBe(206);
      expect(part.headers.get("Content-Range"), header).toBe(`bytes ${from}-${bytes.length - 1}/${bytes.length}`);
      expect(new Uint8Array(await part.arrayBuffer()), header).toEqual(bytes.subarray(from));
    }
  });

  it("keeps a private item from everyone but its owner", async () => {
    const { id, owner } = await uploaded("0");
    expect(await findContent(id, owner)).not.toBeNull();
    expect(await findContent(id, owner + 1000)).toBeNull();
    expect(await findContent(id, null)).toBeNull();
  });

  it("delete removes the row and both objects, and only for the owner", async () => {
    const before = await storedKeys();
    const { id, owner } = await uploaded("1");
    expect((await storedKeys()).length).toBe(before.length + 2);
    expect(await deleteContent(id, owner + 1)).toBe(false);
    expect(await deleteContent(id, owner)).toBe(true);
    expect(await findContent(id, owner)).toBeNull();
    expect(await storedKeys()).toEqual(before);
  });

  it("streams a file larger than one 8 MiB part through an R2 multipart upload", async () => {
    const big = new Uint8Array(9 * 1024 * 1024 + 123);
    big.set(mp4Bytes(), 0);
    const received = await receiveUpload(
      postedOf(upload([...textFields({ kind: "video" }), { name: "file", filename: "v.mp4", type: "video/mp4", body: big }])),
    );
    expect(received.file).toMatchObject({ type: "video/mp4", size: big.length });
    const head = await env.FILES.head(received.file?.key ?? "");
    expect(head?.size).toBe(big.length);
    await env.FILES.delete(received.file?.key ?? "");
  });
});

describe("what a failing upload or new version leaves in R2", () => {
  /** Objects of uploads (files, thumbnails and their variants) that no row names. */
  async function unreferenced() {
    const { results } = await env.DB.prepare(
      `SELECT file_key AS key FROM content UNION SELECT thumbnail_key FROM content
       UNION SELECT file_key FROM content_versions UNION SELECT thumbnail_key FROM content_versions
       UNION SELECT object_key FROM uploads`,
    ).all<{ key: string }>();
    const named = new Set(results.map((row) => row.key));
    return (await storedKeys()).filter(
      (key) => /^(files|thumbnails)\//.test(key) && !named.has(key) && !named.has(key.replace(/\.(w\d+\.(webp|jpg)|as-sent)$/, "")),
    );
  }
  const thumbnail = { name: "thumbnail", filename: "t.png", type: "image/png", body: pngBytes() };
  const pdf = { name: "file", filename: "a.pdf", type: "application/pdf", body: pdfBytes() };
  const video = { name: "file", filename: "v.mp4", type: "video/mp4", body: mp4Bytes(4096) };
  const captions = (text: string) => [
    { name: "captions_lang", value: "fr" },
    { name: "captions", filename: "c.vtt", type: "text/vtt", body: new TextEncoder().encode(text) },
  ];
  /** A write D1 refuses as if the database failed mid-request, while `crash` runs. */
  async function crashingInsertsInto<T>(table: string, crash: () => Promise<T>) {
    await env.DB.exec(`CREATE TRIGGER crash_${table} BEFORE INSERT ON ${table} BEGIN SELECT RAISE(ABORT, 'crash'); END`);
    try {
      return await crash();
    } finally {
      await env.DB.exec(`DROP TRIGGER crash_${table}`);
    }
  }

  it("finds nothing unreferenced after every failing path: refused, crashed, over a limit, account gone", async () => {
    const before = await unreferenced();
    const owner = await newMember("Sweeper");
    const post = (parts: Parameters<typeof multipart>[0], as = owner) =>
      createFromMultipart(postedOf(upload(parts)), as, Date.now(), () => {});
    const refused = (parts: Parameters<typeof multipart>[0], as = owner) => attempt(() => post(parts, as));
    // Refused: a field, a caption file that does not parse, one nested past the bound.
    expect(await refused([...textFields({ title: "" }), thumbnail, pdf])).toMatchObject({ status: 400, field: "title" });
    const nested = `WEBVTT\n\n00:00:01.000 --> 00:00:02.000\n${"<b>".repeat(5000)}x\n`;
    expect(await refused([...textFields({ kind: "video" }), thumbnail, video, ...captions(nested)])).toBeInstanceOf(Refused);
    expect(await refused([...textFields({ kind: "video" }), thumbnail, video, ...captions("WEBVTT\n\nnonsense\n")])).toBeInstanceOf(
      Refused,
    );
    // Over a limit: a caption file past its size, after the video and thumbnail were stored.
    expect(
      await refused([...textFields({ kind: "video" }), thumbnail, video, ...captions(`WEBVTT\n\n${"x".repeat(3 * 1024 * 1024)}`)]),
    ).toBeInstanceOf(Refused);
    // Crashed: the database fails while the item is written.
    await expect(crashingInsertsInto("content", () => post([...textFields(), thumbnail, pdf]))).rejects.toThrow();
    // An item to add versions to, then a new version refused, crashed, and for an account gone.
    const made = await post([...textFields(), thumbnail, pdf]);
    const version = (fields: Record<string, string>, as = owner) =>
      attempt(() =>
        addVersionFromMultipart(
          postedOf(upload([...Object.entries(fields).map(([name, value]) => ({ name, value })), thumbnail, pdf])),
          made.id,
          as,
          Date.now(),
          () => {},
        ),
      );
    expect(await version({ note: "" })).toMatchObject({ status: 400, field: "note" });
    await expect(crashingInsertsInto("content_versions", () => version({ note: "Crashes" }))).rejects.toThrow();
    expect(await version({ note: "Not theirs" }, await newMember("Stranger"))).toMatchObject({ status: 404 });
    // Account gone while the upload arrived: its row marked and its items gone with their files.
    expect(await deleteContent(made.id, owner)).toBe(true);
    await env.DB.prepare("UPDATE users SET deleted_at = ? WHERE id = ?").bind(Date.now(), owner).run();
    expect(await refused([...textFields(), thumbnail, pdf])).toMatchObject({ status: 401 });
    expect(await version({ note: "Gone" })).toMatchObject({ status: 404 });
    expect(await unreferenced()).toEqual(before);
  });
});

describe("funding sent with an upload (issue 52)", () => {
  const withFunding = (fields: Record<string, string>) =>
    upload([
      ...textFields({}),
      ...Object.entries(fields).map(([name, value]) => ({ name, value })),
      { name: "thumbnail", filename: "t.png", type: "image/png", body: pngBytes() },
      { name: "file", filename: "a.pdf", type: "application/pdf", body: pdfBytes() },
    ]);

  it("stores the reference with the item, its ROR id checked, and says when the member asked to name more next", async () => {
    const owner = await newMember("Funded Uploader");
    const created = await createFromMultipart(
      postedOf(withFunding({ funder_name: "NSF", funder_id: "ror.org/021nxhr62", award_number: "2024-1", then_funding: "1" })),
      owner,
      Date.now(),
      () => {},
    );
    expect(created.thenFunding).toBe(true);
    expect(await fundingOf(created.id)).toMatchObject([
      { funder_name: "NSF", funder_id: "https://ror.org/021nxhr62", funder_id_type: "ROR", award_number: "2024-1" },
    ]);
  });

  it("refuses a funder the registry does not hold, or an identifier that is none, beside the field, and keeps nothing", async () => {
    const owner = await newMember("Careless Funded Uploader");
    const before = await storedKeys();
    const refusals = [
      ["https://ror.org/0abcdef12", "ror.notFound"],
      ["JST", "validation.funderIdInvalid"],
    ] as const;
    for (const [funder_id, key] of refusals) {
      const refused = await attempt(() =>
        createFromMultipart(postedOf(withFunding({ funder_name: "X", funder_id })), owner, Date.now(), () => {}),
      );
      expect(refused).toMatchObject({ fields: { funder_id: [key] } });
    }
    expect(await env.DB.prepare("SELECT count(*) AS n FROM content WHERE owner_id = ?").bind(owner).first("n")).toBe(0);
    expect(await storedKeys()).toEqual(before);
  });
});
