import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { requestSuggestion, saveItemText } from "~/.server/content/item-texts";
import { translateText } from "~/.server/content/translate-text";
import { attempt, Refused } from "~/.server/refused";
import { TEXT_SUGGESTION_WAIT_MS, TEXT_SUGGESTIONS_PER_DAY, TITLE_MAX } from "~/lib/limits";
import * as detail from "~/routes/content-detail/route";
import * as texts from "~/routes/texts/route";
import { newItem, newMember, until } from "./helpers";
import { callRoute, sessionFor } from "./route";

// Machine suggestions of an item's title and abstract (decision 0050), through the real queue and
// the stand-in translation model (scripts/fake-speech-to-text.mjs answers m2m100's shape): shown to
// the owner to accept, edit or drop, never over the owner's own text, and within a daily budget.

async function item(title = "Safe water in small towns") {
  const owner = await newMember("Suggested");
  const id = await newItem(owner, { title, summary: "What we measured." });
  await env.DB.prepare("UPDATE content SET language = 'en' WHERE id = ?").bind(id).run();
  return { owner, id, token: await sessionFor(owner), row: { id, owner_id: owner, language: "en" } };
}

const textOf = (id: number, lang: string) =>
  env.DB.prepare("SELECT title, summary, source, state FROM item_texts WHERE content_id = ? AND lang = ?")
    .bind(id, lang)
    .first<{ title: string; summary: string; source: string; state: string }>();

describe("a machine's suggestion", () => {
  it("is asked for on the owner's page, arrives through the queue for the owner alone, and once accepted is shown labelled", async () => {
    const { id, token } = await item();
    const asked = await callRoute(texts, { path: `/retrieval/detail/texts?id=${id}`, token, form: { intent: "suggest", lang: "ja" } });
    expect(asked.status).toBe(303);
    const suggested = await until(async () => ((await textOf(id, "ja"))?.state === "suggested" ? textOf(id, "ja") : null));
    expect(suggested).toEqual({
      title: "機械翻訳：Safe water in small towns",
      summary: "機械翻訳：What we measured.",
      source: "machine",
      state: "suggested",
    });
    const reader = await sessionFor(await newMember("Reader"));
    const read = () =>
      callRoute<{ wording: { title: string; source: string } }>(detail, {
        path: `/retrieval/detail?id=${id}`,
        token: reader,
        headers: { "Accept-Language": "ja" },
      });
    expect((await read()).data.wording.source).toBe("original");
    expect(
      (await callRoute(texts, { path: `/retrieval/detail/texts?id=${id}`, token, form: { intent: "accept", lang: "ja" } })).status,
    ).toBe(303);
    expect((await read()).data.wording).toMatchObject({ title: "機械翻訳：Safe water in small towns", source: "machine" });
    // Changed and saved by its owner, it is theirs.
    await callRoute(texts, {
      path: `/retrieval/detail/texts?id=${id}`,
      token,
      form: { intent: "save", lang: "ja", title: "安全な水", summary: "要旨" },
    });
    expect(await textOf(id, "ja")).toMatchObject({ source: "author", state: "shown" });
  });

  it("is stored once when its job is delivered twice, and never over the owner's own text written meanwhile", async () => {
    const first = await item();
    await requestSuggestion(first.row, "zh", Date.now());
    await translateText(first.id, "zh");
    const once = await textOf(first.id, "zh");
    await env.DB.prepare("UPDATE item_texts SET title = 'kept' WHERE content_id = ? AND lang = 'zh'").bind(first.id).run();
    await translateText(first.id, "zh");
    expect(await textOf(first.id, "zh")).toEqual({ ...once, title: "kept" });

    // A translation longer than a title may be is cut to the limit (the owner's own would be refused past it).
    const longest = await item("t".repeat(TITLE_MAX));
    await requestSuggestion(longest.row, "ja", Date.now());
    await translateText(longest.id, "ja");
    expect((await textOf(longest.id, "ja"))?.title).toBe(`機械翻訳：${"t".repeat(TITLE_MAX)}`.slice(0, TITLE_MAX));

    const raced = await item();
    await requestSuggestion(raced.row, "zh", Date.now());
    await saveItemText(raced.row, "zh", { title: "安全的水", summary: "摘要" }, Date.now());
    await translateText(raced.id, "zh");
    expect(await textOf(raced.id, "zh")).toEqual({ title: "安全的水", summary: "摘要", source: "author", state: "shown" });
    // And asked for again over the owner's text, it is refused.
    const again = await attempt(() => requestSuggestion(raced.row, "zh", Date.now()));
    expect(again instanceof Refused && again.fields.lang).toEqual(["content.textIsYours"]);
  });

  it("stays pending when the model fails, and after a while lets the owner ask again", async () => {
    const { id, token } = await item("UNTRANSLATABLE title");
    // Pending as requestSuggestion leaves it, without its queued job (whose retries would only repeat this).
    await env.DB.prepare(
      "INSERT INTO item_texts (content_id, lang, title, summary, source, state, updated_at) VALUES (?, 'ja', '', '', 'machine', 'pending', ?)",
    )
      .bind(id, Date.now())
      .run();
    await expect(translateText(id, "ja")).rejects.toThrow(/Capacity temporarily exceeded/);
    expect(await textOf(id, "ja")).toMatchObject({ source: "machine", state: "pending" });
    type Page = { texts: { lang: string; failed: boolean }[] };
    const shown = async () => (await callRoute<Page>(texts, { path: `/retrieval/detail/texts?id=${id}`, token })).data.texts;
    expect(await shown()).toEqual([expect.objectContaining({ lang: "ja", failed: false })]);
    await env.DB.prepare("UPDATE item_texts SET updated_at = ? WHERE content_id = ?")
      .bind(Date.now() - TEXT_SUGGESTION_WAIT_MS - 1, id)
      .run();
    expect(await shown()).toEqual([expect.objectContaining({ lang: "ja", failed: true })]);
  });

  it("is asked for at most the daily budget's times by a member, and never in the item's own language", async () => {
    const { owner, row } = await item();
    const day = new Date().toISOString().slice(0, 10);
    await env.DB.prepare("INSERT INTO text_suggestion_days (owner_id, day, n) VALUES (?, ?, ?)")
      .bind(owner, day, TEXT_SUGGESTIONS_PER_DAY - 1)
      .run();
    await requestSuggestion(row, "ja", Date.now());
    const over = await attempt(() => requestSuggestion(row, "zh", Date.now()));
    expect(over instanceof Refused && [over.key, over.status]).toEqual([
      `content.suggestionsExhausted|max=${TEXT_SUGGESTIONS_PER_DAY}`,
      429,
    ]);
    expect(await textOf(row.id, "zh")).toBeNull();
    const own = await attempt(() => requestSuggestion(row, "en", Date.now()));
    expect(own instanceof Refused && own.fields.lang).toEqual(["content.textIsOriginal"]);
  });
});
