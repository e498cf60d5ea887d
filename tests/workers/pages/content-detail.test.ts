import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import * as detail from "~/routes/content-detail/route";
import * as edit from "~/routes/edit/route";
import * as itemStats from "~/routes/stats/item";
import { newItem, newMember } from "../helpers";
import { callRoute, sessionFor } from "../route";

// The detail page's loader and intents (moved here from the browser suites, which keep the clicks).

async function owner() {
  const id = await newMember("Owner");
  return { id, token: await sessionFor(id), item: await newItem(id, { title: "Wells" }) };
}

describe("/retrieval/detail", () => {
  it("sends a visitor without a session to the login with the full path, told why", async () => {
    const answer = await callRoute(detail, { path: "/retrieval/detail?id=1" });
    expect(answer.status).toBe(302);
    expect(answer.location).toBe(`/login?redirect=${encodeURIComponent("/retrieval/detail?id=1")}`);
    expect(JSON.parse(answer.cookies.flash ?? "{}")).toMatchObject({ kind: "info", key: "notify.loginRequired" });
  });

  it("answers 404 for an item that does not exist or is not a number", async () => {
    const { token } = await owner();
    for (const id of ["999999", "x", "-1"])
      expect((await callRoute(detail, { path: `/retrieval/detail?id=${id}`, token })).status).toBe(404);
  });

  it("tells the owner apart, and opens the item's statistics to its owner alone", async () => {
    const me = await owner();
    const reader = await sessionFor(await newMember("Reader"));
    const path = `/retrieval/detail?id=${me.item}`;
    const page = await callRoute<{ isOwner: boolean }>(detail, { path, token: me.token });
    expect([page.status, page.data.isOwner]).toEqual([200, true]);
    const theirs = await callRoute<{ isOwner: boolean }>(detail, { path, token: reader });
    expect(theirs.data.isOwner).toBe(false);
    const statsPath = `/retrieval/detail/stats?id=${me.item}`;
    const stats = await callRoute<{ readers: unknown; view: { range: string } }>(itemStats, {
      path: `${statsPath}&range=12m`,
      token: me.token,
    });
    expect([stats.status, stats.data.readers, stats.data.view.range]).toEqual([200, { researchers: 0, supporters: 0 }, "12m"]);
    expect((await callRoute(itemStats, { path: statsPath, token: reader })).status).toBe(404);
    expect((await callRoute(itemStats, { path: "/retrieval/detail/stats?id=x", token: me.token })).status).toBe(404);
  });

  it("likes and unlikes, with a 303 back to the item", async () => {
    const author = await owner();
    const reader = await newMember("Reader");
    const token = await sessionFor(reader);
    const path = `/retrieval/detail?id=${author.item}`;
    const liked = await callRoute(detail, { path, token, form: { intent: "like" } });
    expect([liked.status, liked.location]).toEqual([303, path]);
    const likes = () => env.DB.prepare("SELECT likes FROM content WHERE id = ?").bind(author.item).first<number>("likes");
    expect(await likes()).toBe(1);
    await callRoute(detail, { path, token, form: { intent: "like" } });
    expect(await likes()).toBe(1);
    await callRoute(detail, { path, token, form: { intent: "unlike" } });
    expect(await likes()).toBe(0);
  });

  it("refuses an empty comment with 400 and the field's message, and stores a repeated one once", async () => {
    const author = await owner();
    const path = `/retrieval/detail?id=${author.item}`;
    const empty = await callRoute<{ comment: { error: Record<string, string[]> } }>(detail, {
      path,
      token: author.token,
      form: { intent: "comment", body: " " },
    });
    expect(empty.status).toBe(400);
    expect(empty.data.comment.error.body).toBeDefined();
    const form = { intent: "comment", body: "Twice", client_key: crypto.randomUUID() };
    for (let i = 0; i < 2; i++) expect((await callRoute(detail, { path, token: author.token, form })).status).toBe(303);
    const stored = await env.DB.prepare("SELECT COUNT(*) AS n FROM comments WHERE content_id = ?").bind(author.item).first<number>("n");
    expect(stored).toBe(1);
  });

  it("asks again before a delete without JavaScript, then deletes with a notice", async () => {
    const me = await owner();
    const path = `/retrieval/detail?id=${me.item}`;
    const asked = await callRoute<{ confirmDelete: boolean }>(detail, { path, token: me.token, form: { intent: "delete" } });
    expect([asked.status, asked.data.confirmDelete]).toEqual([200, true]);
    const deleted = await callRoute(detail, { path, token: me.token, form: { intent: "delete", confirm: "1" } });
    expect([deleted.status, deleted.location]).toEqual([303, "/upload"]);
    expect(JSON.parse(deleted.cookies.flash ?? "{}")).toMatchObject({ kind: "success", key: "content.deleted" });
    expect(await env.DB.prepare("SELECT id FROM content WHERE id = ?").bind(me.item).first()).toBeNull();
  });

  it("does not let another member edit or delete the item, nor open its edit page", async () => {
    const me = await owner();
    const other = await sessionFor(await newMember("Other"));
    const path = `/retrieval/detail?id=${me.item}`;
    const editPath = `/retrieval/detail/edit?id=${me.item}`;
    const fields = { intent: "edit", sdg: "3", title: "Taken", summary: "s", content: "c", keywords: "k", publicize: "1" };
    expect((await callRoute(edit, { path: editPath, token: other })).status).toBe(404);
    expect((await callRoute(edit, { path: editPath, token: other, form: fields })).status).toBe(404);
    expect((await callRoute(detail, { path, token: other, form: { intent: "delete", confirm: "1" } })).status).toBe(404);
    // Editing is its own page's: the item's page takes no edit.
    expect((await callRoute(detail, { path, token: me.token, form: fields })).status).toBe(400);
    expect(await env.DB.prepare("SELECT title FROM content WHERE id = ?").bind(me.item).first("title")).toBe("Wells");
  });

  it("opens the owner's edit page with the item's details, and refuses an empty title beside the field", async () => {
    const me = await owner();
    const path = `/retrieval/detail/edit?id=${me.item}`;
    const page = await callRoute<{ item: { title: string }; licenses: { common: unknown[] } }>(edit, { path, token: me.token });
    expect([page.status, page.data.item.title]).toEqual([200, "Wells"]);
    const fields = { intent: "edit", sdg: "3", title: "", summary: "s", content: "c", keywords: "k", publicize: "1" };
    const refused = await callRoute<{ result: { error: Record<string, string[]> } }>(edit, { path, token: me.token, form: fields });
    expect([refused.status, refused.data.result.error.title]).toEqual([400, ["validation.fieldEmpty|field=fields.title"]]);
    const saved = await callRoute(edit, { path, token: me.token, form: { ...fields, title: "Deep wells" } });
    expect([saved.status, saved.location]).toEqual([303, `/retrieval/detail?id=${me.item}`]);
    expect(JSON.parse(saved.cookies.flash ?? "{}")).toMatchObject({ kind: "success", key: "notify.updateSuccess" });
    expect(await env.DB.prepare("SELECT title FROM content WHERE id = ?").bind(me.item).first("title")).toBe("Deep wells");
  });

  it("opens the item's record with the checkbox the site offers, and closes it when left unticked", async () => {
    const me = await owner();
    const path = `/retrieval/detail/edit?id=${me.item}`;
    expect((await callRoute<{ openRecords: boolean }>(edit, { path, token: me.token })).data.openRecords).toBe(true);
    const fields = { intent: "edit", sdg: "3", title: "Wells", summary: "s", content: "c", keywords: "k", publicize: "1" };
    const openRecord = () => env.DB.prepare("SELECT open_record FROM content WHERE id = ?").bind(me.item).first("open_record");
    expect((await callRoute(edit, { path, token: me.token, form: { ...fields, open_record: "1" } })).status).toBe(303);
    expect(await openRecord()).toBe(1);
    expect((await callRoute(edit, { path, token: me.token, form: fields })).status).toBe(303);
    expect(await openRecord()).toBe(0);
  });

  it("fills the owner's edit form from a DOI without saving it, and saves the year with the edit", async () => {
    const me = await owner();
    const path = `/retrieval/detail/edit?id=${me.item}`;
    const typed = { sdg: "6", title: "Wells", summary: "s", content: "c", keywords: "k", publicize: "1", doi: "10.5555/rc.2024.001" };
    const other = await sessionFor(await newMember("Other"));
    expect((await callRoute(edit, { path, token: other, form: { ...typed, intent: "prefill" } })).status).toBe(404);
    const filled = await callRoute<{ result: { initialValue: Record<string, string> }; notice: string }>(edit, {
      path,
      token: me.token,
      form: { ...typed, intent: "prefill" },
    });
    expect(filled.data.notice).toBe("notify.doiFilled");
    expect(filled.data.result.initialValue).toMatchObject({
      title: expect.stringContaining("Groundwater recharge"),
      year: "2024",
      content: "c",
    });
    expect(await env.DB.prepare("SELECT title FROM content WHERE id = ?").bind(me.item).first("title")).toBe("Wells");
    const saved = await callRoute(edit, { path, token: me.token, form: { ...filled.data.result.initialValue, intent: "edit" } });
    expect(saved.status).toBe(303);
    const row = await env.DB.prepare("SELECT title, published_year FROM content WHERE id = ?").bind(me.item).first();
    expect(row).toMatchObject({ title: expect.stringContaining("Groundwater recharge"), published_year: 2024 });
  });
});

describe("/retrieval/detail of a video with captions", () => {
  it("shows the transcript's part holding the second asked for, the player starting there, tracks with the shown language first", async () => {
    const { saveCaptions } = await import("~/.server/content/captions");
    const me = await owner();
    const video = await newItem(me.id, { kind: "video", title: "Long talk" });
    // 150 cues of 4 s in English, one Japanese cue: two parts of 100 in English.
    const cues = Array.from({ length: 150 }, (_, i) => ({ start_ms: i * 4000, end_ms: i * 4000 + 3000, text: `line ${i}` }));
    await saveCaptions(video, "en", cues, "owner", Date.now());
    await saveCaptions(video, "ja", [{ start_ms: 0, end_ms: 1000, text: "はじめに" }], "owner", Date.now());
    type Page = {
      transcript: { at: number | null; view: { page: number; pages: number; cues: { start_ms: number; text: string }[] } | null };
      tracks: { lang: string; shown: boolean }[];
    };
    const at = await callRoute<Page>(detail, { path: `/retrieval/detail?id=${video}&lang=en&t=500`, token: me.token });
    expect(at.data.transcript.at).toBe(500);
    // Cue 125 starts at 500 s: it is in the second part (the page renders its link with #t=500).
    expect([at.data.transcript.view?.page, at.data.transcript.view?.pages]).toEqual([2, 2]);
    const texts = at.data.transcript.view?.cues.map((cue) => cue.text) ?? [];
    expect(texts).toContain("line 125");
    expect(texts).not.toContain("line 99");
    expect(at.data.tracks.map((track) => [track.lang, track.shown])).toEqual([
      ["en", true],
      ["ja", false],
    ]);
    const first = await callRoute<Page>(detail, { path: `/retrieval/detail?id=${video}&lang=ja`, token: me.token });
    expect(first.data.tracks.map((track) => [track.lang, track.shown])).toEqual([
      ["ja", true],
      ["en", false],
    ]);
    // Text a member wrote reaches the page as text, which React escapes as it renders any (no HTML made here).
    await saveCaptions(video, "en", [{ start_ms: 0, end_ms: 1000, text: "<script>alert(1)</script> & more" }], "owner", Date.now());
    const escaped = await callRoute<Page>(detail, { path: `/retrieval/detail?id=${video}&lang=en`, token: me.token });
    expect(escaped.data.transcript.view?.cues[0]?.text).toBe("<script>alert(1)</script> & more");
  });
});
