import { readFileSync } from "node:fs";
import type { Page } from "@playwright/test";
import { parse as parseBibtex } from "@retorquere/bibtex-parser";
import { expect, signUpAndIn, test } from "./fixtures";
import { demo, downloaded, fillUpload, ready } from "./helpers";

// Issue 35, JavaScript on and off: upload under a licence, add a version with a note, see
// "Version 2 of 2", open version 1 with its banner, cite each (BibTeX and CSL-JSON read back by a
// BibTeX parser and JSON.parse) and filter search by licence.

async function citation(page: Page) {
  const bib = await downloaded(page, ".bib", () => page.getByTestId("cite-bibtex").click());
  const library = parseBibtex(readFileSync((await bib.path()) ?? "", "utf8"));
  expect(library.errors).toEqual([]);
  const csl = await downloaded(page, ".json", () => page.getByTestId("cite-csl-json").click());
  const [record] = JSON.parse(readFileSync((await csl.path()) ?? "", "utf8")) as Record<string, string>[];
  return { bibtex: library.entries[0]?.fields, csl: record };
}

test("a work gets a second version; the first stays readable and citable, each under its licence", async ({ page }) => {
  const info = test.info();
  const word = `aquifer${Date.now().toString(36)}`;
  await signUpAndIn(page, `Versioner ${Date.now()}`);
  await fillUpload(page, "Document (PDF)", `${word} study`);
  await page.getByLabel("Licence", { exact: true }).selectOption("CC0-1.0");
  // Private: the shared feed's first page stays the demo catalogue's for the other browser tests.
  await page.getByLabel("Private: only you can see it").check();
  await page.getByLabel("File", { exact: true }).setInputFiles(demo("sample-document.pdf"));
  await page.getByLabel("Thumbnail image").setInputFiles(demo("sample-document-thumbnail.png"));
  await page.getByRole("button", { name: "Upload", exact: true }).click();
  await expect(page).toHaveURL(/\/retrieval\/detail\?id=\d+$/);
  const itemUrl = page.url();
  await expect(page.getByTestId("license")).toContainText("CC0-1.0");

  await ready(page, info);
  await page.getByTestId("add-version").click();
  await expect(page).toHaveURL(/\/retrieval\/detail\/version\?id=\d+$/);
  await ready(page, info);
  const form = page.getByTestId("version-form");
  await form.getByLabel("What changed").fill("Corrected the second figure");
  // A licence the select does not list, by the SPDX identifier typed beside it.
  await form.getByLabel("Licence", { exact: true }).selectOption("Another licence (its identifier below)");
  await form.getByLabel("Another licence: its SPDX identifier").fill("CC-BY-3.0");
  await form.getByLabel("File", { exact: true }).setInputFiles(demo("sample-document.pdf"));
  await form.getByRole("button", { name: "Publish the version" }).click();
  await expect(page.getByTestId("toast")).toHaveText("Version 2 is published.");
  await expect(page.getByTestId("version")).toHaveText("Version 2 of 2 — What changed: Corrected the second figure");
  await expect(page.getByTestId("license")).toContainText("CC-BY-3.0");
  const latest = await citation(page);
  expect(latest.csl).toMatchObject({ version: "2", license: "CC-BY-3.0" });
  expect(latest.bibtex?.version).toBe("2");

  await page.getByTestId("versions").getByRole("link", { name: "Version 1 of 2" }).click();
  await expect(page).toHaveURL(/&version=1$/);
  await expect(page.getByTestId("older-version")).toContainText("You are reading version 1. A newer version exists: version 2.");
  await expect(page.getByTestId("license")).toContainText("CC0-1.0");
  await expect(page.getByTestId("download")).toHaveAttribute("href", /version=1&download$/);
  const first = await citation(page);
  expect(first.csl).toMatchObject({ version: "1", license: "CC0-1.0" });
  expect(first.bibtex?.version).toBe("1");
  expect(first.bibtex?.license).toBe("CC0-1.0");

  // Search filters by the licence the work carries now (its latest version's).
  await page.goto(`/retrieval?q=${word}&license=CC-BY-3.0`);
  await expect(page.getByRole("link", { name: `${word} study` })).toBeVisible();
  await page.goto(`/retrieval?q=${word}&license=CC0-1.0`);
  await expect(page.getByRole("link", { name: `${word} study` })).toHaveCount(0);
  await page.goto(itemUrl);
  await expect(page.getByTestId("version")).toContainText("Version 2 of 2");
});
