import { execFile } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import htmlMetadata from "html-metadata";
import { expect, signUpAndIn, test } from "./fixtures";
import { deleteItems, uploadOpen } from "./helpers";

// What harvesters and crawlers read of the open records (decision 0049), judged by tools nobody here
// wrote: every OAI-PMH answer and sitemap validated with xmllint against the published schemas
// (tests/fixtures/xsd, each named with its source there), the repository harvested whole through its
// resumption tokens by HTTP::OAI (Debian's libhttp-oai-perl; the server lists two records an answer,
// OAI_LIST_SIZE), and a record's head parsed by html-metadata. Requests only: it runs once (js project).

const run = promisify(execFile);
const XSD = "tests/fixtures/xsd";
const NAUGHTY: string[] = JSON.parse(readFileSync("node_modules/big-list-of-naughty-strings/blns.json", "utf8"));
let saved = 0;

/** xmllint's verdict on a document against a schema, offline, the one web-addressed import read from the fixtures. */
async function validate(xml: string, schema: string, what: string) {
  const file = join(tmpdir(), `oai-${process.pid}-${saved++}.xml`);
  writeFileSync(file, xml);
  const verdict = await run("xmllint", ["--nonet", "--noout", "--schema", `${XSD}/${schema}`, file], {
    env: { ...process.env, XML_CATALOG_FILES: `${XSD}/catalog.xml` },
  }).then(
    () => "valid",
    (error: { stderr?: string }) => error.stderr ?? String(error),
  );
  expect(verdict, what).toBe("valid");
}

test("a harvester gets every record once through the tokens, and every answer is valid against the protocol's schemas", async ({
  page,
  baseURL,
}) => {
  test.setTimeout(240_000);
  const origin = baseURL ?? "";
  const host = new URL(origin).hostname;
  await signUpAndIn(page, "Harvested");
  const member = page.request;
  const open: number[] = [];
  for (let i = 0; i < 2; i++) open.push(await uploadOpen(member, origin, `Soil carbon ${i}`, { sdg: "15" }));
  const reserved = await uploadOpen(member, origin, "Soil carbon, rights reserved", {
    sdg: "15",
    license: "LicenseRef-All-Rights-Reserved",
  });
  const unopened = await uploadOpen(member, origin, "Soil carbon, members only", { sdg: "15", open_record: "0" });
  const deleted = await uploadOpen(member, origin, "Soil carbon, withdrawn", { sdg: "15" });
  const removed = await member.post(`/retrieval/detail?id=${deleted}`, {
    headers: { Origin: origin },
    form: { intent: "delete", confirm: "1" },
    maxRedirects: 0,
  });
  expect(removed.status()).toBe(303);

  // HTTP::OAI follows the tokens: each record once, the deleted one said to be, the closed one absent.
  const { stdout } = await run("perl", ["tests/e2e/oai/harvest.pl", `${origin}/oai`, "ListRecords", "set", "sdg:15"]);
  const lines = stdout.trim().split("\n");
  const byId = new Map(lines.map((line) => [Number(line.split(" ")[0]?.split(":").at(-1)), line]));
  expect(byId.size, stdout).toBe(lines.length);
  for (const id of [...open, reserved]) expect(byId.get(id), stdout).toMatch(/^oai:\S+ \d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ titles=1$/);
  expect(byId.get(deleted), stdout).toMatch(/ deleted$/);
  expect(byId.has(unopened), stdout).toBe(false);

  // One record's title and abstract in Japanese too: Dublin Core gives each with its xml:lang.
  const translated = await member.post(`/retrieval/detail/texts?id=${open[0]}`, {
    headers: { Origin: origin },
    form: { intent: "save", lang: "ja", title: "土壌炭素", summary: "見つけたこと。" },
    maxRedirects: 0,
  });
  expect(translated.status()).toBe(303);

  // Every verb's answer, an error, and each page of the list, by GET and POST, against the XSDs.
  const answers: [string, string][] = [
    ["Identify", "verb=Identify"],
    ["ListMetadataFormats", "verb=ListMetadataFormats"],
    ["ListSets", "verb=ListSets"],
    ["GetRecord", `verb=GetRecord&metadataPrefix=oai_dc&identifier=oai:${host}:${open[0]}`],
    ["a deleted record", `verb=GetRecord&metadataPrefix=oai_dc&identifier=oai:${host}:${deleted}`],
    ["badVerb", "verb=Harvest&verb=Harvest"],
    ["badArgument", "verb=ListRecords"],
    ["noRecordsMatch", "verb=ListIdentifiers&metadataPrefix=oai_dc&from=2999-01-01"],
  ];
  for (const [what, query] of answers) await validate(await (await page.request.get(`/oai?${query}`)).text(), "oai-pmh-with-dc.xsd", what);
  for (const verb of ["ListIdentifiers", "ListRecords"]) {
    let query = `verb=${verb}&metadataPrefix=oai_dc&set=sdg:15`;
    for (let pageNo = 1; query; pageNo++) {
      const xml = await (await page.request.post("/oai", { form: Object.fromEntries(new URLSearchParams(query)) })).text();
      await validate(xml, "oai-pmh-with-dc.xsd", `${verb} page ${pageNo}`);
      const token = /<resumptionToken[^>]*>([^<]+)<\/resumptionToken>/.exec(xml)?.[1];
      query = token ? `verb=${verb}&resumptionToken=${token}` : "";
    }
  }

  // Member text of every kind stays valid XML: the big list of naughty strings, a summary's worth at a
  // time. The form refuses a few (hidden characters): a refused batch is halved until
  // the strings it refuses stand alone.
  let written = 0;
  const write = async (strings: string[]): Promise<void> => {
    const summary = strings.join("\n");
    const title = `Naughty ${written}`;
    const edited = await member.post(`/retrieval/detail/edit?id=${open[0]}`, {
      headers: { Origin: origin },
      form: {
        intent: "edit",
        sdg: "15",
        title,
        summary,
        content: "c",
        keywords: "k",
        publicize: "1",
        license: "CC-BY-4.0",
        open_record: "1",
      },
      maxRedirects: 0,
    });
    if (edited.status() !== 303) {
      expect(edited.status(), summary).toBe(400);
      const half = Math.ceil(strings.length / 2);
      if (strings.length > 1) for (const part of [strings.slice(0, half), strings.slice(half)]) await write(part);
      return;
    }
    written += strings.length;
    const xml = await (await page.request.get(`/oai?verb=GetRecord&metadataPrefix=oai_dc&identifier=oai:${host}:${open[0]}`)).text();
    expect(xml).toContain(`<dc:title xml:lang="en">${title}</dc:title>`);
    await validate(xml, "oai-pmh-with-dc.xsd", `a record written with ${JSON.stringify(summary.slice(0, 80))}`);
  };
  const batch: string[] = [];
  for (const text of NAUGHTY) {
    if ([...batch, text].join("\n").length > 1900) await write(batch.splice(0));
    batch.push(text);
  }
  await write(batch);
  expect(written).toBeGreaterThan(NAUGHTY.length * 0.8);

  // The sitemap index and its sitemaps against the sitemaps' schemas.
  const index = await (await page.request.get("/sitemap.xml")).text();
  await validate(index, "siteindex.xsd", "the sitemap index");
  for (const loc of index.matchAll(/<loc>([^<]+)<\/loc>/g)) {
    await validate(await (await page.request.get(new URL(loc[1] ?? "").pathname)).text(), "sitemap.xsd", loc[1] ?? "");
  }
  await deleteItems(member, origin, [...open, reserved, unopened]);
});

test("the record's head, read by html-metadata (Wikipedia's citation parser), says what the item is", async ({ browser, baseURL }) => {
  const origin = baseURL ?? "";
  const ownerContext = await browser.newContext();
  const owner = await ownerContext.newPage();
  await signUpAndIn(owner, "Cited");
  const today = new Date().toISOString().slice(0, 10);
  const id = await uploadOpen(owner.request, origin, "Solar grids & village power");
  const home = `${origin}/records/${id}/`;
  // Who funded it, named by ROR id (decision 0052).
  const funded = await owner.request.post(`/retrieval/detail/funding?id=${id}`, {
    headers: { Origin: origin },
    form: { intent: "add", funder_name: "U.S. National Science Foundation", funder_id: "https://ror.org/021nxhr62", award_number: "2040" },
    maxRedirects: 0,
  });
  expect(funded.status()).toBe(303);
  const metadata = await htmlMetadata(home);
  expect(metadata.general).toMatchObject({
    canonical: home,
    title: "Solar grids & village power - Research Commons",
    description: "How twelve villages shared one solar grid.",
    lang: "en",
  });
  // Scholar's rules: the year published, the upload as the online date, every author, the PDF in the page's directory.
  expect(metadata.highwirePress).toEqual({
    title: "Solar grids & village power",
    author: ["Cited", "Grace Hopper"],
    publication_date: "2021",
    online_date: today.replaceAll("-", "/"),
    doi: "10.5555/solar.2021",
    language: "en",
    pdf_url: `${home}${id}.pdf`,
    abstract_html_url: home,
    keywords: "solar, grids",
  });
  expect(metadata.jsonLd).toMatchObject({
    "@context": "https://schema.org",
    "@type": "ScholarlyArticle",
    name: "Solar grids & village power",
    abstract: "How twelve villages shared one solar grid.",
    author: [
      { "@type": "Person", name: "Cited" },
      { "@type": "Person", name: "Grace Hopper" },
    ],
    datePublished: "2021",
    inLanguage: "en",
    url: home,
    identifier: "https://doi.org/10.5555/solar.2021",
    license: "https://creativecommons.org/licenses/by/4.0/legalcode",
    encoding: { "@type": "MediaObject", contentUrl: `${home}${id}.pdf` },
    funding: [
      {
        "@type": "MonetaryGrant",
        identifier: "2040",
        funder: { "@type": "Organization", name: "U.S. National Science Foundation", "@id": "https://ror.org/021nxhr62" },
      },
    ],
  });
  expect(metadata.openGraph).toEqual({
    type: "article",
    title: "Solar grids & village power",
    description: "How twelve villages shared one solar grid.",
    url: home,
    image: { url: `${home}thumbnail` },
  });
  expect(metadata.twitter).toEqual({ card: "summary_large_image" });
  await deleteItems(owner.request, origin, [id]);
  await ownerContext.close();
});
