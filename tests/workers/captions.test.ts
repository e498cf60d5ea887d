import { env } from "cloudflare:workers";
import webvtt from "node-webvtt";
import { describe, expect, it } from "vitest";
import { deleteAccount } from "~/.server/accounts/delete-account";
import { exportData } from "~/.server/accounts/export-data";
import { createSession } from "~/.server/accounts/sessions";
import { autoCaption } from "~/.server/content/auto-captions";
import { deleteContent } from "~/.server/content/content";
import { textShards } from "~/.server/databases";
import { searchContent, searchQuerySchema } from "~/.server/search/search";
import { CAPTIONS_MAX_BYTES, CAPTIONS_MAX_CUES, CAPTIONS_MEMBER_MAX_MB } from "~/lib/limits";
import { mp4Bytes, mp4Lasting, multipart, pngBytes, textFields } from "../fixtures/files";
import { apiCall as call, apiJson as json } from "./api-call";
import { newMember, testCaller, until } from "./helpers";
import { account, PASSWORD } from "./pages/page-helpers";

// Captions (issue 36) through the API and the services the pages use: each language stored, served
// as WebVTT that another parser reads, searched to the second (a one-character Chinese word among
// them); refusals that change nothing; replacement and deletion leaving no index rows behind; the
// stand-in speech-to-text model's captions stored once however often their job runs.

/** A test video whose "speech" the stand-in model hears (scripts/fake-speech-to-text.mjs). */
function videoSaying(language: string, segments: [number, number, string][]) {
  const marker = new TextEncoder().encode(`SPEECH:${JSON.stringify({ language, segments })}\n`);
  const bytes = mp4Bytes(4096);
  bytes.set(marker, 64);
  return bytes;
}

async function uploadedVideo(file = mp4Bytes(4096), publicize = "1", owner?: number, extra: Parameters<typeof multipart>[0] = []) {
  owner ??= await newMember("Captioner");
  const token = await createSession(owner, Date.now());
  const { body, contentType } = multipart([
    ...textFields({ kind: "video", title: `Talk ${crypto.randomUUID().slice(0, 6)}`, publicize }),
    { name: "thumbnail", filename: "t.png", type: "image/png", body: pngBytes() },
    { name: "file", filename: "v.mp4", type: "video/mp4", body: file },
    ...extra,
  ]);
  const response = await call(token, "POST", "/contents", { body: await new Response(body).arrayBuffer(), type: contentType });
  const created = await json(response);
  return { owner, token, id: Number(created.data?.id), status: response.status, errors: created.errors };
}

const vtt = (...cues: [string, string, string][]) =>
  `WEBVTT\n\n${cues.map(([from, to, text]) => `${from} --> ${to}\n${text}\n`).join("\n")}`;
const put = (token: string, id: number, lang: string, file: string | Uint8Array<ArrayBuffer>) =>
  call(token, "PUT", `/contents/${id}/captions/${lang}`, { body: file, type: "text/vtt" });

const videosSaying = async (q: string, viewer: number) =>
  (await searchContent(searchQuerySchema.parse({ q, tab: "videos" }), viewer, Date.now())).hits;

/** What every text shard holds (an item's cues live in its own; after its deletion, in none). */
const inShards = async (sql: string, value: unknown) => {
  let n = 0;
  for (const { db } of textShards()) n += Number(await db.prepare(sql).bind(value).first("n"));
  return n;
};
const cueRows = (id: number) => inShards("SELECT count(*) AS n FROM caption_cues WHERE content_id = ?", id);
/** Index rows whose cue is gone: an external-content index out of step says so by matching rows that no longer exist. */
const indexed = (word: string) => inShards("SELECT count(*) AS n FROM caption_fts WHERE caption_fts MATCH ?", `"${word}"`);
/** Waits for the follow-up to take an item's cues out of its shard. */
const cuesGone = (id: number, word: string) => until(async () => (await cueRows(id)) + (await indexed(word)) === 0 || null);

describe("captions", () => {
  it("are stored per language, served as WebVTT another parser reads, and found to the second in en, ja and zh", async () => {
    const { owner, token, id } = await uploadedVideo();
    const files = {
      en: vtt(
        ["00:00:01.000", "00:00:02.500", "<v Ana>We measured <b>nitrate</b> in wells &amp; rivers</v>"],
        ["00:12:34.000", "00:12:36.000", "The quillwort samples"],
      ),
      ja: vtt(["00:00:03.000", "00:00:05.000", "地下水の安全性を測りました"]),
      zh: vtt(["00:00:07.250", "00:00:09.000", "我们每天喝水"]),
    };
    for (const [lang, file] of Object.entries(files)) {
      const answer = await put(token, id, lang, file);
      expect(answer.status).toBe(200);
    }
    const listed = (await json(await call(token, "GET", `/contents/${id}/captions`))).data?.captions as {
      lang: string;
      cue_count: number;
      source: string;
    }[];
    expect(listed.map((c) => [c.lang, c.cue_count, c.source])).toEqual([
      ["en", 2, "owner"],
      ["ja", 1, "owner"],
      ["zh", 1, "owner"],
    ]);
    const served = await call(token, "GET", `/contents/${id}/captions/en.vtt`);
    expect(served.headers.get("Content-Type")).toBe("text/vtt; charset=utf-8");
    const parsed = webvtt.parse(await served.text(), { strict: true });
    expect(parsed.valid).toBe(true);
    // Markup dropped, entities decoded (and written back escaped), times kept.
    expect(parsed.cues.map((c: { start: number; text: string }) => [c.start, c.text])).toEqual([
      [1, "We measured nitrate in wells &amp; rivers"], // node-webvtt leaves references as written
      [754, "The quillwort samples"],
    ]);
    // Another member finds each by a word only its captions hold, at the cue's second.
    const reader = await newMember("Reader");
    const hitOf = async (q: string) => (await videosSaying(q, reader)).find((hit) => hit.id === id);
    expect((await hitOf("quillwort"))?.passage).toEqual({ text: "The \u0001quillwort\u0002 samples", time: 754, lang: "en" });
    expect((await hitOf("nitrate"))?.passage).toMatchObject({ time: 1, lang: "en" });
    expect((await hitOf("安全"))?.passage).toMatchObject({ time: 3, lang: "ja" });
    expect((await hitOf("地下水"))?.passage).toMatchObject({ time: 3, lang: "ja" });
    expect((await hitOf("水"))?.passage).toMatchObject({ time: 3, lang: "ja" });
    expect((await hitOf("喝"))?.passage).toEqual({ text: "我们每天\u0001喝\u0002水", time: 7, lang: "zh" });
    // English words by their stem: "sample" finds "samples", "measuring" finds "measured".
    expect((await hitOf("sample"))?.passage).toMatchObject({ time: 754 });
    expect((await hitOf("measuring"))?.passage).toMatchObject({ time: 1 });
    // Every word in one cue: words said in different cues do not make a match.
    expect(await hitOf("nitrate quillwort")).toBeUndefined();
    // The API's search answers the same passage.
    const api = (await json(await call(token, "GET", `/search?tab=videos&q=${encodeURIComponent("喝")}`))).data?.results as {
      id: number;
      passage: unknown;
    }[];
    expect(api.find((hit) => hit.id === id)?.passage).toMatchObject({ time: 7, lang: "zh" });
    // A private video's captions are its owner's alone.
    const hidden = await uploadedVideo(undefined, "0");
    await put(hidden.token, hidden.id, "en", vtt(["00:00:01.000", "00:00:02.000", "zanzibarwort"]));
    expect((await videosSaying("zanzibarwort", reader)).map((hit) => hit.id)).toEqual([]);
    expect((await videosSaying("zanzibarwort", hidden.owner)).map((hit) => hit.id)).toEqual([hidden.id]);
    expect(owner).not.toBe(reader);
  });

  it("can come with the upload, which a file that does not parse refuses whole", async () => {
    const file = (text: string) => ({ name: "captions", filename: "c.vtt", type: "text/vtt", body: new TextEncoder().encode(text) });
    const sent = await uploadedVideo(undefined, "1", undefined, [
      { name: "captions_lang", value: "ja" },
      file(vtt(["00:00:03.000", "00:00:04.000", "持続可能な灌漑"])),
    ]);
    expect(sent.status).toBe(201);
    expect((await videosSaying("灌漑", sent.owner)).map((hit) => [hit.id, hit.passage])).toEqual([
      [sent.id, expect.objectContaining({ time: 3, lang: "ja" })],
    ]);
    const owner = await newMember("Refused");
    const before = Number(await env.DB.prepare("SELECT count(*) AS n FROM content WHERE owner_id = ?").bind(owner).first("n"));
    const broken = await uploadedVideo(undefined, "1", owner, [{ name: "captions_lang", value: "en" }, file("WEBVTT\n\nnonsense\n")]);
    expect([broken.status, Object.keys(broken.errors ?? {})]).toEqual([400, ["captions"]]);
    const untagged = await uploadedVideo(undefined, "1", owner, [file(vtt(["00:00:01.000", "00:00:02.000", "x"]))]);
    expect([untagged.status, Object.keys(untagged.errors ?? {})]).toEqual([400, ["captions_lang"]]);
    expect(Number(await env.DB.prepare("SELECT count(*) AS n FROM content WHERE owner_id = ?").bind(owner).first("n"))).toBe(before);
  });

  it("follow the matches in the videos' fields, newest first", async () => {
    const inTitle = await uploadedVideo();
    await env.DB.prepare("UPDATE content SET title = 'Marshwort survey' WHERE id = ?").bind(inTitle.id).run();
    const said = await uploadedVideo();
    await put(said.token, said.id, "en", vtt(["00:00:05.000", "00:00:06.000", "the marshwort grows here"]));
    const ids = (await videosSaying("marshwort", said.owner)).map((hit) => hit.id);
    expect(ids).toEqual([inTitle.id, said.id]);
  });

  it("refuse a file that does not parse, is too large, has too many cues or hides characters, and change nothing", async () => {
    const { token, id } = await uploadedVideo();
    await put(token, id, "en", vtt(["00:00:01.000", "00:00:02.000", "the original words"]));
    const refusal = async (file: string | Uint8Array<ArrayBuffer>, lang = "en") => {
      const answer = await put(token, id, lang, file);
      return { status: answer.status, message: String(((await answer.json()) as { message: string }).message) };
    };
    expect(await refusal("WEBVTT\n\n00:00:01.000 --> 00:00:02.000\nfine\n\n00:00:03.000 -> 00:00:04.000\nbroken\n")).toEqual({
      status: 400,
      message: expect.stringMatching(/line 7/),
    });
    expect(await refusal("not a caption file")).toMatchObject({ status: 400, message: expect.stringMatching(/line 1/) });
    expect((await refusal(new Uint8Array(CAPTIONS_MAX_BYTES + 1).fill(65))).status).toBe(413);
    const at = (s: number) => new Date(s * 1000).toISOString().slice(11, 23);
    const many = Array.from({ length: CAPTIONS_MAX_CUES + 1 }, (_, i) => `${at(i)} --> ${at(i + 0.5)}\nx`);
    expect(await refusal(`WEBVTT\n\n${many.join("\n\n")}\n`)).toMatchObject({
      status: 413,
      message: expect.stringMatching(/20000|20,000/),
    });
    expect(await refusal(vtt(["00:00:01.000", "00:00:02.000", "txt.\u202Eexe"]))).toEqual({
      status: 400,
      message: expect.stringMatching(/line 4/i),
    });
    expect((await refusal(vtt(["00:00:01.000", "00:00:02.000", "bell\u0007"]))).status).toBe(400);
    expect(await refusal(new Uint8Array([0xff, 0xfe, 0x00]))).toMatchObject({ status: 400 });
    expect((await refusal(vtt(["00:00:01.000", "00:00:02.000", "<b></b>"]))).status).toBe(400);
    expect((await put(token, id, "not a tag!", vtt(["00:00:01.000", "00:00:02.000", "x"]))).status).toBe(404);
    expect((await refusal(vtt(["00:00:01.000", "00:00:02.000", "x"]), "x")).status).toBe(400);
    // Someone else's video: as if it were not there.
    const other = await createSession(await newMember("Other"), Date.now());
    expect((await put(other, id, "en", vtt(["00:00:01.000", "00:00:02.000", "taken over"]))).status).toBe(404);
    const served = await (await call(token, "GET", `/contents/${id}/captions/en.vtt`)).text();
    expect(served).toContain("the original words");
    expect(await cueRows(id)).toBe(1);
  });

  it("refuse tags nested past the bound and characters hidden behind references, with the line, in every way in", async () => {
    const { token, id } = await uploadedVideo();
    const nested = `WEBVTT\n\n00:00:01.000 --> 00:00:02.000\n${"<b>".repeat(5000)}x\n`;
    const answer = await put(token, id, "fr", nested);
    expect([answer.status, ((await answer.json()) as { message: string }).message]).toEqual([400, expect.stringMatching(/line 4/)]);
    // Nesting members' files use still reads.
    expect((await put(token, id, "fr", vtt(["00:00:01.000", "00:00:02.000", "<v Ana><b><i>deep</i></b></v>"]))).status).toBe(200);
    for (const reference of ["&#8238;", "&#x202e;", "&#1;", "&#27;"]) {
      const hidden = await put(token, id, "de", vtt(["00:00:01.000", "00:00:02.000", `txt${reference}exe`]));
      expect([reference, hidden.status]).toEqual([reference, 400]);
    }
    // With the upload: refused beside the field, the upload made nothing.
    const owner = await newMember("Nester");
    const sent = await uploadedVideo(undefined, "1", owner, [
      { name: "captions_lang", value: "fr" },
      { name: "captions", filename: "c.vtt", type: "text/vtt", body: new TextEncoder().encode(nested) },
    ]);
    expect([sent.status, Object.keys(sent.errors ?? {})]).toEqual([400, ["captions"]]);
    expect(Number(await env.DB.prepare("SELECT count(*) AS n FROM content WHERE owner_id = ?").bind(owner).first("n"))).toBe(0);
  });

  it("fit the video's length, whichever way its file says it", async () => {
    const short = await uploadedVideo(mp4Lasting(10_000));
    const message = async (answer: Response) => [answer.status, ((await answer.json()) as { message: string }).message];
    expect(await message(await put(short.token, short.id, "en", vtt(["00:01:00.000", "00:01:02.000", "after the end"])))).toEqual([
      400,
      expect.stringMatching(/1:00.*0:10/),
    ]);
    const at = (s: number) => new Date(s * 1000).toISOString().slice(11, 23);
    const crowded = Array.from({ length: 121 }, (_, i) => `${at(i / 20)} --> ${at(i / 20 + 0.05)}\nw${i}`);
    expect(await message(await put(short.token, short.id, "en", `WEBVTT\n\n${crowded.join("\n\n")}\n`))).toEqual([
      413,
      expect.stringMatching(/120/),
    ]);
    // A last cue running a little past the end is what caption tools write.
    expect((await put(short.token, short.id, "en", vtt(["00:00:09.000", "00:00:12.000", "the last words"]))).status).toBe(200);
    const long = await uploadedVideo(mp4Lasting(90_000, 1));
    expect((await put(long.token, long.id, "en", vtt(["00:01:20.000", "00:01:22.000", "still on"]))).status).toBe(200);
    expect((await put(long.token, long.id, "en", vtt(["00:02:00.000", "00:02:02.000", "gone"]))).status).toBe(400);
    // With the upload: refused beside the field, nothing made.
    const sent = await uploadedVideo(mp4Lasting(10_000), "1", short.owner, [
      { name: "captions_lang", value: "en" },
      { name: "captions", filename: "c.vtt", type: "text/vtt", body: new TextEncoder().encode(vtt(["00:05:00.000", "00:05:01.000", "x"])) },
    ]);
    expect([sent.status, Object.keys(sent.errors ?? {})]).toEqual([400, ["captions"]]);
  });

  it("stay within their owner's budget, at once too, and a refused replacement keeps what it would replace", async () => {
    const budget = CAPTIONS_MEMBER_MAX_MB * 1024 * 1024;
    const first = await uploadedVideo();
    const second = await uploadedVideo(undefined, "1", first.owner);
    /** n bytes of cue text, in cues of 500 characters. */
    const words = (n: number) =>
      vtt(
        ...Array.from(
          { length: Math.ceil(n / 500) },
          (_, i) => [`00:00:0${i}.000`, `00:00:0${i}.500`, "w".repeat(Math.min(500, n - i * 500))] as [string, string, string],
        ),
      );
    expect((await put(first.token, first.id, "en", words(10))).status).toBe(200);
    // The member's other captions take all but 1,500 bytes.
    await env.DB.prepare("UPDATE captions SET text_bytes = ? WHERE content_id = ?")
      .bind(budget - 1500, first.id)
      .run();
    const over = await put(first.token, second.id, "en", words(1600));
    expect([over.status, ((await over.json()) as { message: string }).message]).toEqual([413, expect.stringMatching(/16 MB/)]);
    // Replacing the set that holds the budget with a smaller one is fine: its own bytes are freed.
    expect((await put(first.token, first.id, "en", words(20))).status).toBe(200);
    await env.DB.prepare("UPDATE captions SET text_bytes = ? WHERE content_id = ?")
      .bind(budget - 1500, first.id)
      .run();
    // Two sets that fit one at a time, sent at once: one is stored.
    const [ja, zh] = await Promise.all([put(first.token, second.id, "ja", words(1000)), put(first.token, second.id, "zh", words(1000))]);
    expect([ja.status, zh.status].sort()).toEqual([200, 413]);
    const kept = ja.status === 200 ? "ja" : "zh";
    // Replacing it with one past the budget is refused and keeps it.
    expect((await put(first.token, second.id, kept, words(1600))).status).toBe(413);
    expect(await (await call(first.token, "GET", `/contents/${second.id}/captions/${kept}.vtt`)).text()).toContain("w".repeat(500));
    // The upload's captions are held to it before the video is made.
    const sent = await uploadedVideo(undefined, "1", first.owner, [
      { name: "captions_lang", value: "en" },
      { name: "captions", filename: "c.vtt", type: "text/vtt", body: new TextEncoder().encode(words(1600)) },
    ]);
    expect([sent.status, Object.keys(sent.errors ?? {})]).toEqual([400, ["captions"]]);
  });

  it("replaced, replace their index rows; removed or deleted with their video, leave none", async () => {
    const { owner, token, id } = await uploadedVideo();
    await put(
      token,
      id,
      "en",
      vtt(["00:00:01.000", "00:00:02.000", "oldwordia here"], ["00:00:03.000", "00:00:04.000", "oldwordia again"]),
    );
    expect(await indexed("oldwordia")).toBe(2);
    await put(token, id, "en", vtt(["00:00:09.000", "00:00:10.000", "newwordia now"]));
    expect(await indexed("oldwordia")).toBe(0);
    expect(await cueRows(id)).toBe(1);
    expect((await videosSaying("newwordia", owner)).map((hit) => hit.passage)).toEqual([expect.objectContaining({ time: 9 })]);
    expect((await videosSaying("oldwordia", owner)).length).toBe(0);
    // Two files for one language at once: one set is left, whole.
    await Promise.all([
      put(token, id, "en", vtt(["00:00:01.000", "00:00:02.000", "racewordia one"])),
      put(token, id, "en", vtt(["00:00:01.000", "00:00:02.000", "racewordia two"], ["00:00:03.000", "00:00:04.000", "racewordia three"])),
    ]);
    expect([1, 2]).toContain(await cueRows(id));
    expect(await indexed("racewordia")).toBe(await cueRows(id));
    await put(token, id, "en", vtt(["00:00:09.000", "00:00:10.000", "newwordia now"]));
    // Removing is idempotent.
    expect((await call(token, "DELETE", `/contents/${id}/captions/en`)).status).toBe(200);
    expect((await call(token, "DELETE", `/contents/${id}/captions/en`)).status).toBe(200);
    expect([await cueRows(id), await indexed("newwordia")]).toEqual([0, 0]);
    expect((await call(token, "GET", `/contents/${id}/captions/en.vtt`)).status).toBe(404);

    await put(token, id, "ja", vtt(["00:00:01.000", "00:00:02.000", "消える言葉"]));
    // The owner's data export carries them.
    const exported = JSON.parse(await new Response(exportData(owner, Date.now(), "https://app.test")).text());
    expect(exported.captions).toEqual([expect.objectContaining({ content_id: id, lang: "ja", source: "owner", cue_count: 1 })]);
    expect(exported.captionCues).toEqual([expect.objectContaining({ start_ms: 1000, text: "消える言葉" })]);
    expect(await deleteContent(id, owner)).toBeTruthy();
    await cuesGone(id, "消");
    expect(Number(await env.DB.prepare("SELECT count(*) AS n FROM captions WHERE content_id = ?").bind(id).first("n"))).toBe(0);

    // An account's deletion takes its videos' captions too.
    const leaving = await uploadedVideo(undefined, "1", (await account()).id);
    await put(leaving.token, leaving.id, "en", vtt(["00:00:01.000", "00:00:02.000", "goodbyewort"]));
    await deleteAccount(leaving.owner, PASSWORD, testCaller().caller);
    await cuesGone(leaving.id, "goodbyewort");
  });

  it("come from the speech-to-text model for a new video, once however often the job runs, until the owner replaces them", async () => {
    const speech: [number, number, string][] = [
      [0.5, 2.4, "こんにちは、研究の話です"],
      [3.0, 4.0, "井戸の水質について"],
    ];
    const { owner, token, id } = await uploadedVideo(videoSaying("ja", speech));
    // The upload queued the job; the stand-in answered in the model's shape.
    const listed = await until(async () => {
      const captions = (await json(await call(token, "GET", `/contents/${id}/captions`))).data?.captions as {
        lang: string;
        source: string;
        cue_count: number;
      }[];
      return captions.length ? captions : null;
    });
    expect(listed.map((c) => [c.lang, c.source, c.cue_count])).toEqual([["ja", "automatic", 2]]);
    // Delivered again, twice at once: still one set.
    await Promise.all([autoCaption(id), autoCaption(id)]);
    expect(await cueRows(id)).toBe(2);
    expect((await videosSaying("水質", owner)).map((hit) => hit.passage)).toEqual([expect.objectContaining({ time: 3, lang: "ja" })]);

    // Two runs racing on a video that has none yet store one set between them.
    const raced = await newMember("Racer");
    const key = `videos/race-${crypto.randomUUID()}.mp4`;
    await env.FILES.put(key, videoSaying("en", [[1, 2, "a raced transcript"]]));
    const row = await env.DB.prepare(
      `INSERT INTO content (owner_id, kind, sdg, title, summary, content, keywords, publicize, file_key, file_size, file_type, thumbnail_key, thumbnail_type, created_at, updated_at)
       VALUES (?, 'video', 6, 'Raced', 's', 'c', 'k', 1, ?, 4096, 'video/mp4', 't', 'image/png', 1, 1) RETURNING id`,
    )
      .bind(raced, key)
      .first<{ id: number }>();
    await Promise.all([autoCaption(Number(row?.id)), autoCaption(Number(row?.id))]);
    expect(await cueRows(Number(row?.id))).toBe(1);

    // The owner's file replaces the automatic one, which is then theirs; a later job leaves it.
    await put(token, id, "ja", vtt(["00:00:01.000", "00:00:02.000", "持ち主の字幕"]));
    await autoCaption(id);
    const after = (await json(await call(token, "GET", `/contents/${id}/captions`))).data?.captions as {
      source: string;
      cue_count: number;
    }[];
    expect(after.map((c) => [c.source, c.cue_count])).toEqual([["owner", 1]]);
    // A silent video gets none.
    const silent = await uploadedVideo(mp4Bytes(4096));
    await autoCaption(silent.id);
    expect(await cueRows(silent.id)).toBe(0);
  });
});
