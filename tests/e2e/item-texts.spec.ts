import { expect, signUpAndIn, test } from "./fixtures";
import { deleteItems, ready, uploadOpen } from "./helpers";

// Items in three languages (decision 0050), with JavaScript and without: the owner writes the
// title and abstract in Japanese by hand, and readers in each interface language read theirs, labelled,
// with the way to the original. The citation keeps the original title.

const TEXTS = { ja: { title: "十二の村の太陽光グリッド", summary: "十二の村が一つの太陽光グリッドを共有した方法。" } };

test("an owner writes a Japanese title and abstract, and each reader reads their language, labelled, with the original a link away", async ({
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

  const labels = { en: null, ja: "著者による翻訳", zh: null } as const;
  for (const language of ["en", "ja", "zh"] as const) {
    const context = await browser.newContext({ javaScriptEnabled: info.project.name !== "no-js" });
    const reader = await context.newPage();
    await signUpAndIn(reader, `Reader ${language}`);
    await context.addCookies([{ name: "language", value: language, url: origin }]);
    await reader.goto(`/retrieval/detail?id=${id}`);
    const title = reader.getByTestId("content-title");
    if (language === "ja") {
      await expect(title).toHaveText(TEXTS.ja.title);
      await expect(title).toHaveAttribute("lang", "ja");
      await expect(reader.getByTestId("summary")).toHaveText(TEXTS.ja.summary);
      await expect(reader.getByTestId("wording-label")).toContainText(labels.ja);
      await reader.getByTestId("wording").getByRole("link").click();
      await expect(reader.getByTestId("content-title")).toHaveText("One solar grid for twelve villages");
    } else {
      await expect(title).toHaveText("One solar grid for twelve villages");
      await expect(reader.getByTestId("wording")).toHaveCount(0);
    }
    // The citation keeps the original title whatever the reader's language.
    await expect(reader.getByTestId("cite")).toContainText("One solar grid for twelve villages");
    await context.close();
  }
  await deleteItems(page.request, origin, [id]);
});
