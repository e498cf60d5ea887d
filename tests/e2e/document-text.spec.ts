import { readFileSync } from "node:fs";
import { parse as parseBibtex } from "@retorquere/bibtex-parser";
import { parse as parseRis } from "astrocite-ris";
import { makePdf } from "../../scripts/make-pdf.mjs";
import { expect, signIn, test } from "./fixtures";
import { downloaded, ready } from "./helpers";

// Issue 17: a PDF is found by words inside it, in English, Japanese and Chinese, after the
// background extraction; the result shows the passage and its page and opens the PDF there.
// JavaScript on and off.

const KANJI_DIGITS = "〇一二三四五六七八九";

test("a PDF's own words find it, each with its passage and page, and open it at that page", async ({ page }) => {
  test.setTimeout(120_000);
  const stamp = String(Date.now()).slice(-7);
  const cjk = [...stamp].map((d) => KANJI_DIGITS[Number(d)]).join("");
  const words = { en: `quillwort${stamp}`, ja: `ふわもち観測${cjk}`, zh: `鸿蒙猫舍${cjk}` };
  const title = `Field notes ${stamp}`;
  const pdf = makePdf([
    ["Contents", "1. Where we went"],
    ["Results", `The ${words.en} samples grew in every town.`, `気候変動と${words.ja}の記録。`, `清洁饮水与${words.zh}的研究。`],
  ]);

  await signIn(page);
  await page.goto("/upload");
  await ready(page, test.info());
  await page.getByLabel("Document (PDF)").check();
  await page.getByLabel("Goal").selectOption("6");
  await page.getByLabel("Title").fill(title);
  await page.getByLabel("Summary").fill("What the samples showed.");
  await page.getByLabel("Content", { exact: true }).fill("Methods and results.");
  await page.getByLabel("Keywords").fill("samples");
  await page.getByLabel("Public: every member can see it").check();
  await page
    .getByLabel("File", { exact: true })
    .setInputFiles({ name: "notes.pdf", mimeType: "application/pdf", buffer: Buffer.from(pdf) });
  await page
    .getByLabel("Thumbnail image")
    .setInputFiles({ name: "t.png", mimeType: "image/png", buffer: readFileSync("demo/sample-document-thumbnail.png") });
  await page.getByRole("button", { name: "Upload", exact: true }).click();
  await expect(page).toHaveURL(/\/retrieval\/detail\?id=\d+$/);
  const detail = page.url();

  // The owner sees the extraction's state: pending, then done (the queue runs in the background).
  await expect(async () => {
    await page.goto(detail);
    await expect(page.getByTestId("text-state")).toHaveText("Search finds this document by its text: all 2 pages.");
  }).toPass({ timeout: 60_000 });

  for (const word of Object.values(words)) {
    await page.goto(`/retrieval?q=${encodeURIComponent(word)}`);
    const result = page.getByTestId("search-results").getByRole("listitem");
    await expect(result).toHaveCount(1);
    await expect(result.getByRole("link", { name: title })).toBeVisible();
    const passage = result.getByTestId("passage");
    await expect(passage).toContainText("Page 2");
    await expect(passage.locator("mark")).toHaveText(word);
  }
  await page.getByTestId("search-results").getByRole("link", { name: title }).click();
  await expect(page).toHaveURL(/\/retrieval\/detail\?id=\d+&page=2$/);
  await expect(page.getByTestId("pdf-viewer")).toHaveAttribute("src", /\/files\/\d+#page=2$/);
  await expect(page.getByTestId("open-pdf")).toHaveAttribute("href", /\/files\/\d+#page=2$/);

  const bib = await downloaded(page, ".bib", () => page.getByTestId("cite-bibtex").click());
  expect(parseBibtex(readFileSync((await bib.path()) ?? "", "utf8")).entries[0]?.fields.title).toBe(title);
  const ris = await downloaded(page, ".ris", () => page.getByTestId("cite-ris").click());
  expect(parseRis(readFileSync((await ris.path()) ?? "", "utf8"))[0]?.title).toBe(title);
});
