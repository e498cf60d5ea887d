import { expect, signUpAndIn, test } from "./fixtures";
import { deleteItems, ready, uploadOpen } from "./helpers";

// Items in three languages (decision 0050), with JavaScript and without: the owner writes the
// title and abstract in Japanese by hand and accepts a machine's Chinese suggestion; readers in each
// interface language read theirs, labelled, with the way to the original, and find the English-only
// original by a Japanese or a Chinese query. The citation keeps the original title.

const TEXTS = { ja: { title: "十二の村の太陽光グリッド", summary: "十二の村が一つの太陽光グリッドを共有した方法。" } };
/** What the local stand-in for the translation model puts before a Chinese translation (scripts/fake-speech-to-text.mjs). */
const MACHINE_ZH = "机器译文：";

test("an owner writes a Japanese text and accepts a Chinese suggestion; each reader reads their language, labelled, and finds the original by it", async ({
  page,
  browser,
  baseURL,
}, info) => {
  const origin = baseURL ?? "";
  await signUpAndIn(page, "Translator");
  const id = await uploadOpen(page.request, origin, "One solar grid for twelve villages");

  await page.goto(`/retrieval/detail?id=${id}`);
  await ready(page, info);
  await page.getByTestId("manage-texts").click();
  await expect(page.getByTestId("text-en")).toHaveCount(0);
  const japanese = page.getByTestId("text-ja");
  await japanese.getByLabel("Title in Japanese").fill(TEXTS.ja.title);
  await japanese.getByLabel("Abstract in Japanese").fill(TEXTS.ja.summary);
  await japanese.getByRole("button", { name: "Save the Japanese text" }).click();
  await expect(japanese.getByLabel("Title in Japanese")).toHaveValue(TEXTS.ja.title);
  await expect(japanese.getByRole("button", { name: "Remove the Japanese text" })).toBeVisible();

  // The Chinese text asked of the machine (the local stand-in answers the model's shape), then accepted.
  const chinese = page.getByTestId("text-zh");
  await chinese.getByRole("button", { name: "Ask a machine for the Chinese text" }).click();
  await expect(async () => {
    await page.reload();
    await expect(page.getByTestId("suggestion-zh")).toHaveAttribute("data-state", "suggested", { timeout: 1000 });
  }).toPass({ timeout: 30_000 });
  await expect(chinese.getByLabel("Title in Chinese")).toHaveValue(`${MACHINE_ZH}One solar grid for twelve villages`);
  await chinese.getByRole("button", { name: "Accept the machine's Chinese text" }).click();
  await expect(page.getByTestId("suggestion-zh")).toHaveAttribute("data-state", "shown");

  const labels = { en: null, ja: "著者による翻訳", zh: "机器翻译" } as const;
  for (const language of ["en", "ja", "zh"] as const) {
    const context = await browser.newContext({ javaScriptEnabled: info.project.name !== "no-js" });
    const reader = await context.newPage();
    await signUpAndIn(reader, `Reader ${language}`);
    await context.addCookies([{ name: "language", value: language, url: origin }]);
    await reader.goto(`/retrieval/detail?id=${id}`);
    const title = reader.getByTestId("content-title");
    if (language === "en") {
      await expect(title).toHaveText("One solar grid for twelve villages");
      await expect(reader.getByTestId("wording")).toHaveCount(0);
    } else {
      await expect(title).toHaveText(language === "ja" ? TEXTS.ja.title : `${MACHINE_ZH}One solar grid for twelve villages`);
      await expect(title).toHaveAttribute("lang", language);
      await expect(reader.getByTestId("wording-label")).toContainText(labels[language]);
      await reader.getByTestId("wording").getByRole("link").click();
      await expect(reader.getByTestId("content-title")).toHaveText("One solar grid for twelve villages");
    }
    // The citation keeps the original title whatever the reader's language.
    await expect(reader.getByTestId("cite")).toContainText("One solar grid for twelve villages");
    // A query in Japanese or Chinese finds the English-only original, saying which language matched.
    if (language !== "en") {
      const query = language === "ja" ? "太陽光グリッド" : "机器译文";
      await reader.goto(`/retrieval?q=${encodeURIComponent(query)}`);
      const found = reader
        .getByTestId("search-results")
        .getByRole("listitem")
        .filter({ has: reader.locator(`a[href*="id=${id}"]`) });
      await expect(found.getByTestId("matched-language")).toBeVisible();
    }
    await context.close();
  }
  await deleteItems(page.request, origin, [id]);
});
