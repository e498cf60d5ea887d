import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import type { Page } from "@playwright/test";
import { parse as parseBibtex } from "@retorquere/bibtex-parser";
import { orcidCheck } from "../../app/lib/identifiers";
import { expect, signUpAndIn, test } from "./fixtures";
import { demo, downloaded, logOut, ready } from "./helpers";

// Issue 34, JavaScript on and off: link an ORCID iD from Settings at the stand-in ORCID
// (scripts/fake-orcid.mjs, which the browser reaches as it would reach ORCID), sign in with it, start
// an upload from an ORCID work, fill a form from a DOI, and read the iD back from the Space and from
// the BibTeX and CSL-JSON, through a BibTeX parser and a CSL processor (citeproc-js).

const require = createRequire(import.meta.url);
const CSL = require("citeproc") as {
  Engine: new (
    sys: { retrieveLocale: (lang: string) => string; retrieveItem: (id: string) => unknown },
    style: string,
  ) => { updateItems(ids: string[]): void; makeBibliography(): [unknown, string[]] };
};

/** An iD of this test's own (valid check digit), so no other test's member holds it. */
function newOrcid(): string {
  const digits = `0009${String(Date.now()).slice(-7)}${String(Math.floor(Math.random() * 1e4)).padStart(4, "0")}`;
  return `${digits}${orcidCheck(digits)}`.match(/.{4}/g)?.join("-") ?? "";
}

/** At the stand-in ORCID's sign-in page: sign in as `orcid` and authorize. */
async function signInAtOrcid(page: Page, orcid: string, name: string) {
  await expect(page.getByRole("heading", { name: "Sign in to ORCID (local stand-in)" })).toBeVisible();
  await page.getByLabel("ORCID iD").fill(orcid);
  await page.getByLabel("Name").fill(name);
  await page.getByRole("button", { name: "Authorize access" }).click();
}

test("link ORCID from Settings, sign in with it, upload from an ORCID work, and cite the iD", async ({ page }) => {
  const info = test.info();
  const orcid = newOrcid();
  await signUpAndIn(page, `Orcid member ${Date.now()}`);

  await page.goto("/personal/Setting?section=account");
  await ready(page, info);
  await page.getByTestId("orcid-button-link").click();
  await signInAtOrcid(page, orcid, "Mei Lin");
  await expect(page).toHaveURL(/\/personal\/Setting\?section=account#orcid$/);
  await expect(page.getByTestId("toast")).toHaveText("Your ORCID iD is linked.");
  await expect(page.getByTestId("orcid-linked")).toContainText("Linked as Mei Lin");
  await expect(page.getByTestId("orcid-linked").getByRole("link")).toHaveAttribute("href", `https://orcid.org/${orcid}`);

  await logOut(page);
  await ready(page, info);
  await page.getByTestId("orcid-button-login").click();
  await signInAtOrcid(page, orcid, "Mei Lin");
  await expect(page).toHaveURL(/\/home$/);

  // The Space shows the iD as ORCID asks: the icon and the full link.
  await page.goto("/personal");
  const shown = page.getByTestId("member-orcid").getByRole("link");
  await expect(shown).toHaveAttribute("href", `https://orcid.org/${orcid}`);
  await expect(shown).toHaveText(`https://orcid.org/${orcid}`);

  // An upload started from a work on the ORCID record arrives filled in from its DOI.
  await page.goto("/upload");
  await ready(page, info);
  await page.getByTestId("orcid-works-link").click();
  const works = page.getByTestId("orcid-works");
  await expect(works.getByRole("listitem")).toHaveCount(3);
  await works.getByRole("listitem").filter({ hasText: "Groundwater recharge" }).getByRole("link", { name: "Start an upload" }).click();
  const title = "Groundwater recharge in semi-arid basins after managed aquifer recharge";
  await expect(page.getByLabel("Title")).toHaveValue(title);
  await expect(page.getByLabel("Year published (optional)")).toHaveValue("2024");
  await expect(page.getByLabel("Co-authors (optional)")).toHaveValue("Josiah Carberry, 0000-0002-1825-0097\nMariam Haddad");
  await ready(page, info);
  await page.getByLabel("Document (PDF)").check();
  await page.getByLabel("Goal").selectOption("6");
  await page.getByLabel("Content", { exact: true }).fill("Methods, wells and the three basins.");
  // Private: the shared feed's first page stays the demo catalogue's for the other browser tests.
  await page.getByLabel("Private: only you can see it").check();
  await page.getByLabel("File", { exact: true }).setInputFiles(demo("sample-document.pdf"));
  await page.getByLabel("Thumbnail image").setInputFiles(demo("sample-document-thumbnail.png"));
  await page.getByRole("button", { name: "Upload", exact: true }).click();
  await expect(page).toHaveURL(/\/retrieval\/detail\?id=\d+$/);
  await expect(page.getByTestId("orcid-badge").first()).toHaveAttribute("href", `https://orcid.org/${orcid}`);
  // A co-author's iD that nobody here authenticated is said to be unverified.
  await expect(page.getByTestId("orcid-unverified")).toHaveText("(unverified)");

  const bib = await downloaded(page, ".bib", () => page.getByTestId("cite-bibtex").click());
  const library = parseBibtex(readFileSync((await bib.path()) ?? "", "utf8"));
  expect(library.errors).toEqual([]);
  expect(library.entries[0]?.fields["orcid-numbers"]).toContain(`/${orcid}`);
  expect(library.entries[0]?.fields.year).toBe("2024");

  const cslFile = await downloaded(page, ".json", () => page.getByTestId("cite-csl-json").click());
  const [record] = JSON.parse(readFileSync((await cslFile.path()) ?? "", "utf8")) as Array<Record<string, unknown> & { id: string }>;
  const authors = (record?.author ?? []) as Array<{ ORCID?: string }>;
  expect(authors[0]?.ORCID).toBe(`https://orcid.org/${orcid}`);
  // A CSL processor nobody here wrote reads the record: citeproc-js with the APA style.
  const styles = require("@citation-js/plugin-csl/lib/styles.json") as { apa: string };
  const engine = new CSL.Engine(
    {
      retrieveLocale: () => readFileSync("node_modules/citeproc-locales/locales/locales-en-US.xml", "utf8"),
      retrieveItem: () => record,
    },
    styles.apa,
  );
  engine.updateItems([record?.id ?? ""]);
  const [, entries] = engine.makeBibliography();
  expect(entries.join("")).toContain("(2024)");
  expect(entries.join("")).toContain(title);
});

test("fill the upload form from a DOI; a DOI not found leaves what was typed", async ({ page }) => {
  const info = test.info();
  await signUpAndIn(page, `Doi member ${Date.now()}`);
  await page.goto("/upload");
  await ready(page, info);
  await page.getByLabel("Title").fill("My working title");
  await page.getByLabel("DOI (optional)").fill("10.5555/nobody.knows");
  await page.getByTestId("fill-from-doi").click();
  await expect(page.getByTestId("error-doi")).toHaveText("No record was found for this DOI.");
  await expect(page.getByLabel("Title")).toHaveValue("My working title");

  await ready(page, info);
  await page.getByLabel("DOI (optional)").fill("https://doi.org/10.5555/rc.2021.017");
  await page.getByTestId("fill-from-doi").click();
  await expect(page.getByTestId("doi-filled")).toHaveText("Filled from the DOI's record: check each field before saving.");
  await expect(page.getByLabel("Title")).toHaveValue("都市の水安全保障と気候適応");
  await expect(page.getByLabel("Summary")).toHaveValue("都市の水供給を気候変動に適応させる方法を比較する。");
  await expect(page.getByLabel("Year published (optional)")).toHaveValue("2021");
  await expect(page.getByLabel("DOI (optional)")).toHaveValue("10.5555/rc.2021.017");
});
