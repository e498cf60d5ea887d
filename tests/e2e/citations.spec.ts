import { readFileSync } from "node:fs";
import { parse as parseBibtex } from "@retorquere/bibtex-parser";
import { parse as parseRis } from "astrocite-ris";
import { expect, signIn, test } from "./fixtures";
import { downloaded, ready } from "./helpers";

// Issue 17: an upload's DOI and co-authors with ORCID iDs, and "Cite" on its page, JavaScript on and off.

const demo = (name: string, mimeType: string) => ({ name, mimeType, buffer: readFileSync(`demo/${name}`) });

test.beforeEach(async ({ page }) => {
  await signIn(page);
});

async function fillUpload(page: import("@playwright/test").Page, title: string, doi: string, authors: string) {
  await page.goto("/upload");
  await ready(page, test.info());
  await page.getByLabel("Document (PDF)").check();
  await page.getByLabel("Goal").selectOption("6");
  await page.getByLabel("Title").fill(title);
  await page.getByLabel("Summary").fill("What we measured in twelve towns.");
  await page.getByLabel("Content", { exact: true }).fill("Methods, results and what comes next.");
  await page.getByLabel("Keywords").fill("water, towns");
  await page.getByLabel("DOI (optional)").fill(doi);
  await page.getByLabel("Co-authors (optional)").fill(authors);
  await page.getByLabel("Public: every member can see it").check();
  await page.getByLabel("File", { exact: true }).setInputFiles(demo("sample-document.pdf", "application/pdf"));
  await page.getByLabel("Thumbnail image").setInputFiles(demo("sample-document-thumbnail.png", "image/png"));
  await page.getByRole("button", { name: "Upload", exact: true }).click();
}

test("an upload with a DOI and co-authors is cited in APA, Harvard, BibTeX and RIS", async ({ page }) => {
  const title = `Cited water study ${Date.now()}`;
  await fillUpload(page, title, "https://doi.org/10.5555/Water.E2E", "Noor Haddad, 0000-0002-1825-0097\nSam Rivera");
  await expect(page).toHaveURL(/\/retrieval\/detail\?id=\d+$/);
  await expect(page.getByTestId("doi")).toHaveAttribute("href", "https://doi.org/10.5555/water.e2e");
  await expect(page.getByTestId("co-authors")).toContainText("Noor Haddad");
  await expect(page.getByRole("link", { name: "ORCID iD of Noor Haddad" })).toHaveAttribute(
    "href",
    "https://orcid.org/0000-0002-1825-0097",
  );
  // The demo member shows no names on a public profile: their nick name, whole (issue 30).
  await expect(page.getByTestId("reference-apa")).toContainText("Aiko Tanaka, Haddad, N., & Rivera, S.");
  await expect(page.getByTestId("reference-harvard")).toContainText(title);
  await expect(page.locator('meta[name="citation_doi"]')).toHaveAttribute("content", "10.5555/water.e2e");
  await expect(page.locator('meta[name="citation_author"]')).toHaveCount(3);

  const bib = await downloaded(page, ".bib", () => page.getByTestId("cite-bibtex").click());
  expect(bib.suggestedFilename()).toMatch(/^research-commons-\d+\.bib$/);
  const library = parseBibtex(readFileSync((await bib.path()) ?? "", "utf8"));
  expect(library.entries[0]?.fields.title).toBe(title);
  expect(library.entries[0]?.fields.author?.map((a) => a.lastName ?? a.name)).toEqual(["Aiko Tanaka", "Haddad", "Rivera"]);

  const ris = await downloaded(page, ".ris", () => page.getByTestId("cite-ris").click());
  const [record] = parseRis(readFileSync((await ris.path()) ?? "", "utf8"));
  expect(record?.title).toBe(title);
  expect(record?.DOI).toBe("10.5555/water.e2e");
});

test("a co-author's ORCID iD with a wrong check digit is refused on its line, and nothing is uploaded", async ({ page }) => {
  const title = `Not uploaded ${Date.now()}`;
  await fillUpload(page, title, "10.5555/ok", "Noor Haddad\nSam Rivera, 0000-0002-1825-0098");
  await expect(page.getByTestId("error-authors")).toHaveText(/Line 2 of the authors/);
  await expect(page).toHaveURL(/\/upload$/);
  await page.goto(`/retrieval?q=${encodeURIComponent(title)}`);
  await expect(page.getByTestId("search-results").getByText(title)).toHaveCount(0);
});
