import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { captionsRead } from "~/.server/content/captions";
import { readOne } from "~/.server/reads";
import * as captions from "~/routes/captions/route";
import * as version from "~/routes/version/route";
import { pdfBytes } from "../../fixtures/files";
import { newItem, newMember } from "../helpers";
import { callRoute, sessionFor } from "../route";
import { flashOf, type Reply, signedIn } from "./page-helpers";

// The owner's pages for a video's captions and an item's new version: each form, its refusals
// beside their fields (what was typed kept), and 404 to anyone else.

const captionsOf = (id: number) => readOne(captionsRead(id));
const vtt = (text: string) => new File([text], "c.vtt", { type: "text/vtt" });
const CUES = "WEBVTT\n\n00:00:01.000 --> 00:00:02.000\nHello\n";

describe("/retrieval/detail/captions", () => {
  it("stores a language's captions, refuses a bad language or no file beside the field, and removes them again", async () => {
    const me = await signedIn("Captioner");
    const id = await newItem(me.id, { kind: "video" });
    const path = `/retrieval/detail/captions?id=${id}`;
    const post = (form: Record<string, string | Blob>) => callRoute<{ captions: Reply }>(captions, { path, token: me.token, form });

    const badLang = await post({ intent: "captions", lang: "not a language", captions: vtt(CUES) });
    expect([badLang.status, badLang.data.captions.error]).toEqual([400, { lang: ["content.captionsLanguageInvalid"] }]);
    const noFile = await post({ intent: "captions", lang: "fr", captions: new File([], "empty.vtt") });
    expect([noFile.status, noFile.data.captions.error]).toEqual([400, { captions: ["content.captionsMissing"] }]);
    const broken = await post({ intent: "captions", lang: "fr", captions: vtt("not captions") });
    expect([broken.status, Object.keys(broken.data.captions.error ?? {})]).toEqual([400, ["captions"]]);
    expect(await captionsOf(id)).toEqual([]);

    const saved = await post({ intent: "captions", lang: "fr", captions: vtt(CUES) });
    expect([saved.status, saved.location]).toEqual([303, `/retrieval/detail?id=${id}&lang=fr`]);
    expect(flashOf(saved)).toMatchObject({ kind: "success", key: "content.captionsSaved" });
    expect((await captionsOf(id)).map((set) => set.lang)).toEqual(["fr"]);

    const removed = await callRoute(captions, { path, token: me.token, form: { intent: "remove-captions", lang: "fr" } });
    expect([removed.status, removed.location, flashOf(removed)?.key]).toEqual([303, path, "content.captionsRemoved"]);
    expect(await captionsOf(id)).toEqual([]);
    expect((await callRoute(captions, { path, token: me.token, form: { intent: "elsewhere" } })).status).toBe(400);
  });

  it("refuses a post past the file's limit beside the file, and is 404 to anyone but the owner", async () => {
    const me = await signedIn("Owner");
    const id = await newItem(me.id, { kind: "video" });
    const path = `/retrieval/detail/captions?id=${id}`;
    const huge = await callRoute<{ captions: Reply }>(captions, {
      path,
      token: me.token,
      form: { intent: "captions", lang: "fr", captions: vtt(`${CUES}${"x".repeat(3 * 1024 * 1024)}`) },
    });
    expect([huge.status, huge.data.captions.error?.captions]).toEqual([413, ["content.captionsTooLarge|max=2"]]);
    const other = await sessionFor(await newMember("Someone else"));
    expect((await callRoute(captions, { path, token: other })).status).toBe(404);
    expect((await callRoute(captions, { path, token: other, form: { intent: "remove-captions", lang: "fr" } })).status).toBe(404);
    const document = await newItem(me.id);
    expect((await callRoute(captions, { path: `/retrieval/detail/captions?id=${document}`, token: me.token })).status).toBe(404);
  });
});

describe("/retrieval/detail/version", () => {
  it("adds a version, refuses one without its note beside the field (what was typed kept), and is 404 to anyone else", async () => {
    const me = await signedIn("Versioner");
    const id = await newItem(me.id);
    const path = `/retrieval/detail/version?id=${id}`;
    const file = new File([new Uint8Array(pdfBytes("Second"))], "v2.pdf", { type: "application/pdf" });
    const stored = async () => (await env.FILES.list()).objects.length;
    const before = await stored();
    const noNote = await callRoute<{ version: Reply }>(version, {
      path,
      token: me.token,
      form: { note: "", doi: "10.1234/typed", license: "MIT", client_key: crypto.randomUUID(), file },
    });
    expect(noNote.status).toBe(400);
    expect(noNote.data.version.error).toHaveProperty("note");
    expect(noNote.data.version.initialValue).toMatchObject({ doi: "10.1234/typed", license: "MIT" });
    expect(await stored()).toBe(before);

    const added = await callRoute(version, {
      path,
      token: me.token,
      form: { note: "Second draft", license: "MIT", client_key: crypto.randomUUID(), file },
    });
    expect([added.status, added.location]).toEqual([303, `/retrieval/detail?id=${id}`]);
    expect(flashOf(added)).toMatchObject({ kind: "success", key: "content.versionAdded|number=2" });

    const other = await sessionFor(await newMember("Not the owner"));
    expect((await callRoute(version, { path, token: other })).status).toBe(404);
    const theirs = await callRoute(version, { path, token: other, form: { note: "Mine now", license: "MIT", file } });
    expect(theirs.status).toBe(404);
  });
});
