import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { deleteContent } from "~/.server/content/content";
import { listNotifications } from "~/.server/notifications/notifications";
import { handleApi } from "~/api/router";
import * as detail from "~/routes/content-detail/route";
import * as discovery from "~/routes/discovery";
import * as edit from "~/routes/edit/route";
import * as member from "~/routes/member/route";
import * as record from "~/routes/records/record";
import * as texts from "~/routes/texts/route";
import { newItem, newMember, testCaller } from "../helpers";
import { callRoute, sessionFor } from "../route";

// Items in three languages (decision 0050): the language an item is written in, the owner's title
// and abstract in the interface's other languages, and each reader shown their own language first.

async function item(language: string | null = "en") {
  const owner = await newMember("Translator");
  const id = await newItem(owner, { title: "Safe water in small towns", summary: "What we measured." });
  await env.DB.prepare("UPDATE content SET language = ? WHERE id = ?").bind(language, id).run();
  return { owner, id, token: await sessionFor(owner) };
}

const textsPage = (id: number, token: string, form?: Record<string, string>) =>
  callRoute<{ lang?: string; result?: { error: Record<string, string[]> }; texts: { lang: string; source: string }[] }>(texts, {
    path: `/retrieval/detail/texts?id=${id}`,
    token,
    form,
  });

type Detail = {
  wording: { title: string; summary: string; lang: string | null; source: string };
  otherWording: { lang: string | null; original: boolean } | null;
};
const read = (id: number, token: string, language: string, query = "") =>
  callRoute<Detail>(detail, { path: `/retrieval/detail?id=${id}${query}`, token, headers: { "Accept-Language": language } });

describe("an item's title and abstract in other languages", () => {
  it("are written by the owner and shown to each reader in their language, labelled, with the way to the original", async () => {
    const { id, token } = await item("en");
    const saved = await textsPage(id, token, { intent: "save", lang: "ja", title: "小さな町の安全な水", summary: "測定したこと。" });
    expect([saved.status, saved.location]).toEqual([303, `/retrieval/detail/texts?id=${id}`]);
    const reader = await sessionFor(await newMember("Reader"));
    const japanese = await read(id, reader, "ja");
    expect(japanese.data.wording).toEqual({ title: "小さな町の安全な水", summary: "測定したこと。", lang: "ja", source: "author" });
    expect(japanese.data.otherWording).toEqual({ lang: "en", original: true });
    const original = await read(id, reader, "ja", "&text=original");
    expect(original.data.wording).toMatchObject({ title: "Safe water in small towns", lang: "en", source: "original" });
    expect(original.data.otherWording).toEqual({ lang: "ja", original: false });
    // A reader of a language the item has no text in, and of its own language, read the original.
    for (const language of ["zh", "en"]) {
      const shown = await read(id, reader, language);
      expect([shown.data.wording.source, shown.data.otherWording]).toEqual(["original", null]);
    }
    // The API lists them with whose they are.
    const { caller, settle } = testCaller();
    const request = new Request(`https://app.test/api/contents/${id}`, { headers: { Authorization: `Bearer ${reader}` } });
    const answer = (await (await handleApi({ ...caller, language: "en", request })).json()) as { data: { content: unknown } };
    await settle();
    expect(answer.data.content).toMatchObject({
      language: "en",
      texts: [{ lang: "ja", title: "小さな町の安全な水", summary: "測定したこと。", source: "author" }],
    });
    // Its open record shows a Japanese reader the same, and keeps the original for its head; the change dated the item anew.
    await env.DB.prepare("UPDATE content SET open_record = 1 WHERE id = ?").bind(id).run();
    const before = Number(await env.DB.prepare("SELECT updated_at FROM content WHERE id = ?").bind(id).first("updated_at"));
    await textsPage(id, token, { intent: "save", lang: "ja", title: "小さな町の安全な水", summary: "測定したこと。" });
    expect(Number(await env.DB.prepare("SELECT updated_at FROM content WHERE id = ?").bind(id).first("updated_at"))).toBeGreaterThan(
      before,
    );
    const recorded = await callRoute<{ wording: Detail["wording"]; item: { title: string; language: string } }>(record, {
      path: `/records/${id}/`,
      params: { id: String(id) },
      headers: { "Accept-Language": "ja" },
      inLayout: false,
    });
    expect([recorded.data.wording.title, recorded.data.wording.source, recorded.data.item.title, recorded.data.item.language]).toEqual([
      "小さな町の安全な水",
      "author",
      "Safe water in small towns",
      "en",
    ]);
    // Its Japanese version has an address of its own (hreflang), whatever the reader's own language.
    const version = await callRoute<{ wording: Detail["wording"]; hl: string | null }>(record, {
      path: `/records/${id}/?hl=ja`,
      params: { id: String(id) },
      headers: { "Accept-Language": "zh" },
      inLayout: false,
    });
    expect([version.data.hl, version.data.wording.title]).toEqual(["ja", "小さな町の安全な水"]);
    const removed = await textsPage(id, token, { intent: "remove", lang: "ja" });
    expect(removed.status).toBe(303);
    expect((await read(id, reader, "ja")).data.wording.source).toBe("original");
  });

  it("are refused in the item's own language, empty, too long, or on another member's item", async () => {
    const { id, token } = await item("ja-JP");
    const own = await textsPage(id, token, { intent: "save", lang: "ja", title: "t", summary: "s" });
    expect([own.status, own.data.result?.error.lang]).toEqual([400, ["content.textIsOriginal"]]);
    const empty = await textsPage(id, token, { intent: "save", lang: "en", title: "", summary: "s" });
    expect([empty.status, empty.data.lang, empty.data.result?.error.title]).toEqual([
      400,
      "en",
      ["validation.fieldEmpty|field=fields.title"],
    ]);
    const long = await textsPage(id, token, { intent: "save", lang: "zh", title: "t", summary: "x".repeat(2001) });
    expect(long.data.result?.error.summary).toEqual(["validation.fieldTooLong|field=fields.summary|max=2000"]);
    const other = await sessionFor(await newMember("Other"));
    expect((await textsPage(id, other, { intent: "save", lang: "en", title: "t", summary: "s" })).status).toBe(404);
    expect((await textsPage(id, token)).data.texts).toEqual([]);
  });

  it("go with their item when it is deleted", async () => {
    const { owner, id, token } = await item("en");
    await textsPage(id, token, { intent: "save", lang: "zh", title: "小镇的安全饮水", summary: "我们测量了什么。" });
    expect(await deleteContent(id, owner)).toBe(true);
    expect(await env.DB.prepare("SELECT count(*) AS n FROM item_texts WHERE content_id = ?").bind(id).first("n")).toBe(0);
  });
});

describe("the discovery feed", () => {
  it("shows each card's title and abstract in the reader's language where the owner gave them, else the original", async () => {
    const { id, token } = await item("en");
    await env.DB.prepare("UPDATE content SET sdg = 17, kind = 'video', created_at = ? WHERE id = ?")
      .bind(Date.now() + 60_000, id)
      .run();
    await textsPage(id, token, { intent: "save", lang: "zh", title: "小镇的安全饮水", summary: "我们测量了什么。" });
    const reader = await sessionFor(await newMember("Browser"));
    const card = async (language: string) => {
      const feed = await callRoute<{ items: { id: number; title: string; summary: string; machine_text?: number }[] }>(discovery, {
        path: "/discovery?sdg=17&kind=video",
        token: reader,
        headers: { "Accept-Language": language },
      });
      return feed.data.items.find((shown) => shown.id === id);
    };
    expect(await card("zh")).toMatchObject({ title: "小镇的安全饮水", summary: "我们测量了什么。", machine_text: 0 });
    expect(await card("ja")).toMatchObject({ title: "Safe water in small towns", summary: "What we measured." });
    // A machine's text its owner accepted says so on the card too.
    await env.DB.prepare(
      "INSERT INTO item_texts (content_id, lang, title, summary, source, state, updated_at) VALUES (?, 'ja', '機械翻訳：水', '要旨', 'machine', 'shown', 1)",
    )
      .bind(id)
      .run();
    expect(await card("ja")).toMatchObject({ title: "機械翻訳：水", machine_text: 1 });
    // Once the item says it is written in Japanese, its Japanese readers read the original, on its card as on its page.
    await env.DB.prepare("UPDATE content SET language = 'ja-JP' WHERE id = ?").bind(id).run();
    expect(await card("ja")).toMatchObject({ title: "Safe water in small towns", machine_text: 0 });
    expect((await read(id, reader, "ja")).data.wording.source).toBe("original");
  });
});

describe("the other lists", () => {
  it("name an item in the reader's language where its owner gave it: the Space's cards and the notifications (and so the digests)", async () => {
    const { owner, id, token } = await item("en");
    await textsPage(id, token, { intent: "save", lang: "ja", title: "小さな町の安全な水", summary: "測定したこと。" });
    const reader = await newMember("Notified");
    await env.DB.prepare("UPDATE users SET language = 'ja' WHERE id = ?").bind(reader).run();
    const space = await callRoute<{ uploads: { id: number; title: string }[] }>(member, {
      path: `/personal?member=${owner}`,
      token: await sessionFor(reader),
      headers: { "Accept-Language": "ja" },
    });
    expect(space.data.uploads.find((card) => card.id === id)?.title).toBe("小さな町の安全な水");
    await env.DB.prepare(
      "INSERT INTO notifications (user_id, kind, event, event_key, subject_id, actor_id, created_at) VALUES (?, 'like', 'liked', ?, ?, ?, 1)",
    )
      .bind(reader, `like:${id}:${reader}`, id, owner)
      .run();
    const [notice] = await listNotifications(reader);
    expect(notice?.subject_title).toBe("小さな町の安全な水");
  });
});

describe("an item's language", () => {
  it("is saved as BCP 47 writes it, kept when the edit leaves it out, refused when it is not a tag, and warned of when the text is not in it", async () => {
    const { id, token } = await item(null);
    const path = `/retrieval/detail/edit?id=${id}`;
    const fields = {
      intent: "edit",
      sdg: "6",
      title: "Safe water in small towns",
      summary: "What we measured in twelve small towns.",
      content: "c",
      keywords: "k",
      publicize: "1",
    };
    const language = () => env.DB.prepare("SELECT language FROM content WHERE id = ?").bind(id).first("language");
    const saved = await callRoute(edit, { path, token, form: { ...fields, language: "en-gb" } });
    expect([saved.status, JSON.parse(saved.cookies.flash ?? "{}").key]).toEqual([303, "notify.updateSuccess"]);
    expect(await language()).toBe("en-GB");
    await callRoute(edit, { path, token, form: fields });
    expect(await language()).toBe("en-GB");
    const refused = await callRoute<{ result: { error: Record<string, string[]> } }>(edit, {
      path,
      token,
      form: { ...fields, language: "not a tag" },
    });
    expect([refused.status, refused.data.result.error.language]).toEqual([400, ["validation.languageInvalid"]]);
    const warned = await callRoute(edit, { path, token, form: { ...fields, language: "ja" } });
    expect(JSON.parse(warned.cookies.flash ?? "{}")).toMatchObject({ kind: "info", key: "content.languageMismatch|language=languages.ja" });
    expect(await language()).toBe("ja");
  });
});
