import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { deleteContent } from "~/.server/content/content";
import * as oai from "~/routes/oai/route";
import { newItem, newMember } from "./helpers";
import { callRoute } from "./route";

// OAI-PMH 2.0 at /oai (decision 0049), in storage of its own so a harvest sees exactly the records
// made here. The pool lists 3 records an answer (OAI_LIST_SIZE), so tokens are proved with a few.
// The answers are validated against the protocol's XSDs, and harvested by an OAI client nobody here
// wrote, in tests/e2e/open-records.spec.ts.

const HOST = "127.0.0.1";
const identifier = (id: number) => `oai:${HOST}:${id}`;

async function get(query: string) {
  const answer = await callRoute(oai, { path: `/oai?${query}`, inLayout: false });
  expect([answer.status, answer.headers.get("Content-Type")]).toEqual([200, "text/xml; charset=utf-8"]);
  return answer.body;
}

const errorOf = (xml: string) => /<error code="(\w+)">/.exec(xml)?.[1] ?? null;
const requestOf = (xml: string) => /<request[^>]*>[^<]*<\/request>/.exec(xml)?.[0];
const idsOf = (xml: string) => [...xml.matchAll(/<identifier>oai:[^:]+:(\d+)<\/identifier>/g)].map((m) => Number(m[1]));
const tokenOf = (xml: string) => /<resumptionToken[^>]*>([^<]*)<\/resumptionToken>/.exec(xml)?.[1];
const headerOf = (xml: string, id: number) =>
  new RegExp(`<header[^>]*><identifier>${identifier(id)}</identifier>.*?</header>`).exec(xml)?.[0] ?? null;

/** Every record of a list, through its tokens: each answer's ids in order. */
async function harvestAll(verb: string, query: string) {
  const pages: number[][] = [];
  let xml = await get(`verb=${verb}&${query}`);
  for (;;) {
    expect(errorOf(xml)).toBeNull();
    pages.push(idsOf(xml));
    const token = tokenOf(xml);
    if (!token) return { pages, last: xml };
    xml = await get(`verb=${verb}&resumptionToken=${encodeURIComponent(token)}`);
  }
}

/** An open record (an item opened by its owner, public) changed at `stamp`. */
async function record(
  owner: number,
  { sdg = 1, kind = "document" as "document" | "video", stamp = Date.UTC(2024, 4, 1), license = "CC-BY-4.0" } = {},
) {
  const id = await newItem(owner, { sdg, kind, created_at: stamp, title: "A record", summary: "Its abstract." });
  await env.DB.prepare("UPDATE content SET open_record = 1, license = ? WHERE id = ?").bind(license, id).run();
  // Opening it dated it now (the trigger's way of telling harvesters); the test sets its own time.
  await env.DB.prepare("UPDATE content SET updated_at = ? WHERE id = ?").bind(stamp, id).run();
  return id;
}

let owner: number;
beforeAll(async () => {
  owner = await newMember("Harvested");
  await env.DB.prepare("UPDATE users SET orcid = '0000-0002-1825-0097' WHERE id = ?").bind(owner).run();
});

describe("the protocol's requests", () => {
  it("identifies the repository, by GET and by POST alike", async () => {
    const first = await record(owner, { stamp: Date.UTC(2020, 0, 2, 3, 4, 5, 600) });
    const xml = await get("verb=Identify");
    for (const part of [
      "<repositoryName>Research Commons</repositoryName>",
      `<baseURL>http://${HOST}:8787/oai</baseURL>`,
      "<protocolVersion>2.0</protocolVersion>",
      "<adminEmail>appeals@research-commons.test</adminEmail>",
      "<earliestDatestamp>2020-01-02T03:04:05Z</earliestDatestamp>",
      "<deletedRecord>persistent</deletedRecord>",
      "<granularity>YYYY-MM-DDThh:mm:ssZ</granularity>",
      '<request verb="Identify">',
    ])
      expect(xml).toContain(part);
    const posted = await callRoute(oai, {
      path: "/oai",
      method: "POST",
      form: { verb: "GetRecord", identifier: identifier(first), metadataPrefix: "oai_dc" },
      inLayout: false,
    });
    const got = await get(`verb=GetRecord&identifier=${identifier(first)}&metadataPrefix=oai_dc`);
    const withoutDate = (text: string) => text.replace(/<responseDate>[^<]+<\/responseDate>/, "");
    expect(withoutDate(posted.body)).toBe(withoutDate(got));
    expect(idsOf(got)).toEqual([first]);
  });

  it("names each error by the protocol's code, and echoes the arguments only when they were legal", async () => {
    const id = await record(owner);
    const cases: [string, string][] = [
      ["", "badVerb"],
      ["verb=Harvest", "badVerb"],
      ["verb=Identify&verb=Identify", "badVerb"],
      ["verb=Identify&set=sdg", "badArgument"],
      ["verb=ListRecords", "badArgument"],
      ["verb=ListRecords&metadataPrefix=oai_dc&metadataPrefix=oai_dc", "badArgument"],
      ["verb=ListRecords&metadataPrefix=oai_dc&resumptionToken=x", "badArgument"],
      ["verb=ListRecords&metadataPrefix=oai_dc&from=2024-01-01&until=2024-12-31T00:00:00Z", "badArgument"],
      ["verb=ListRecords&metadataPrefix=oai_dc&from=2024-02-30", "badArgument"],
      ["verb=ListRecords&metadataPrefix=oai_dc&from=2024-01-01T00:00:00", "badArgument"],
      ["verb=GetRecord&identifier=x", "badArgument"],
      ["verb=ListRecords&metadataPrefix=marc21", "cannotDisseminateFormat"],
      [`verb=GetRecord&identifier=${identifier(id)}&metadataPrefix=mods`, "cannotDisseminateFormat"],
      ["verb=GetRecord&identifier=oai:elsewhere.example:1&metadataPrefix=oai_dc", "idDoesNotExist"],
      [`verb=GetRecord&identifier=${identifier(id)}0000&metadataPrefix=oai_dc`, "idDoesNotExist"],
      [`verb=ListMetadataFormats&identifier=${identifier(987_654)}`, "idDoesNotExist"],
      ["verb=ListRecords&resumptionToken=not-ours", "badResumptionToken"],
      ["verb=ListSets&resumptionToken=x", "badResumptionToken"],
      ["verb=ListRecords&metadataPrefix=oai_dc&set=sdg:18", "noRecordsMatch"],
      ["verb=ListIdentifiers&metadataPrefix=oai_dc&from=2099-01-01", "noRecordsMatch"],
    ];
    for (const [query, code] of cases) {
      const xml = await get(query);
      expect(errorOf(xml), query).toBe(code);
      expect(requestOf(xml), query).toEqual(
        code === "badVerb" || code === "badArgument"
          ? `<request>http://${HOST}:8787/oai</request>`
          : expect.stringContaining("<request verb="),
      );
    }
  });

  it("lists its one format, and its sets per goal and per kind", async () => {
    const formats = await get("verb=ListMetadataFormats");
    expect(formats).toContain("<metadataPrefix>oai_dc</metadataPrefix><schema>http://www.openarchives.org/OAI/2.0/oai_dc.xsd</schema>");
    const sets = [...(await get("verb=ListSets")).matchAll(/<setSpec>([^<]+)<\/setSpec><setName>([^<]+)<\/setName>/g)];
    expect(sets.map((m) => m[1])).toEqual([
      "sdg",
      ...Array.from({ length: 17 }, (_, i) => `sdg:${i + 1}`),
      "kind",
      "kind:document",
      "kind:video",
    ]);
    expect(sets.find((m) => m[1] === "sdg:7")?.[2]).toBe("SDG 7: Affordable and Clean Energy");
  });
});

describe("harvesting", () => {
  it("gives every record once through tokens that survive new and closed records, deleted ones kept as such", async () => {
    const made = [];
    for (let i = 0; i < 7; i++) made.push(await record(owner, { sdg: 3, stamp: Date.UTC(2023, 0, 1 + i) }));
    // Not records: an item not opened, and an opened one kept private.
    const unopened = await newItem(owner, { sdg: 3 });
    const hidden = await newItem(owner, { sdg: 3, publicize: 0 });
    await env.DB.prepare("UPDATE content SET open_record = 1 WHERE id = ?").bind(hidden).run();
    let xml = await get("verb=ListIdentifiers&metadataPrefix=oai_dc&set=sdg:3");
    expect(idsOf(xml)).toEqual(made.slice(0, 3));
    expect(/<resumptionToken cursor="0">/.test(xml)).toBe(true);
    // Meanwhile one is deleted, one closed by its owner and one added: the harvest goes on.
    await deleteContent(made[1] ?? 0, owner);
    await env.DB.prepare("UPDATE content SET open_record = 0 WHERE id = ?").bind(made[4]).run();
    const added = await record(owner, { sdg: 3, stamp: Date.UTC(2023, 6, 1) });
    const ids = [...idsOf(xml)];
    for (let token = tokenOf(xml); token; token = tokenOf(xml)) {
      xml = await get(`verb=ListIdentifiers&resumptionToken=${token}`);
      ids.push(...idsOf(xml));
    }
    expect(ids).toEqual([...made, added]);
    expect(xml).toMatch(/<resumptionToken cursor="6"><\/resumptionToken><\/ListIdentifiers>/);
    expect(ids).not.toContain(unopened);
    expect(ids).not.toContain(hidden);
    // Harvested again, the deleted and the closed record say so, dated when they stopped being open.
    const again = (await harvestAll("ListIdentifiers", "metadataPrefix=oai_dc&set=sdg:3")).pages;
    expect(again.flat()).toEqual([...made, added]);
    expect(again.map((page) => page.length)).toEqual([3, 3, 2]);
    for (const gone of [made[1] ?? 0, made[4] ?? 0]) {
      const header = headerOf(await get(`verb=GetRecord&metadataPrefix=oai_dc&identifier=${identifier(gone)}`), gone);
      expect(header).toMatch(/^<header status="deleted"><identifier>[^<]+<\/identifier><datestamp>20\d\d-[^<]+<\/datestamp>/);
      expect(header).toContain("<setSpec>sdg:3</setSpec><setSpec>kind:document</setSpec></header>");
    }
  });

  it("answers a deleted, hidden or private record as deleted, and a record opened again as changed since", async () => {
    const [deleted, hidden, made_private] = [await record(owner), await record(owner), await record(owner)];
    await deleteContent(deleted, owner);
    await env.DB.prepare("UPDATE content SET hidden_at = 1, hidden_publicize = 1, publicize = 0 WHERE id = ?").bind(hidden).run();
    await env.DB.prepare("UPDATE content SET publicize = 0 WHERE id = ?").bind(made_private).run();
    for (const id of [deleted, hidden, made_private]) {
      const xml = await get(`verb=GetRecord&metadataPrefix=oai_dc&identifier=${identifier(id)}`);
      expect(xml, String(id)).toContain('<header status="deleted">');
      expect(xml).not.toContain("<metadata>");
    }
    const before = Date.now();
    await env.DB.prepare("UPDATE content SET hidden_at = NULL, publicize = 1 WHERE id = ?").bind(hidden).run();
    const xml = await get(`verb=GetRecord&metadataPrefix=oai_dc&identifier=${identifier(hidden)}`);
    expect(xml).not.toContain('status="deleted"');
    const stamp = Date.parse(/<datestamp>([^<]+)<\/datestamp>/.exec(xml)?.[1] ?? "");
    expect(stamp).toBeGreaterThanOrEqual(Math.floor(before / 1000) * 1000);
  });

  it("selects by set and by time, to the day or to the second, deleted records among them", async () => {
    const video = await record(owner, { sdg: 14, kind: "video", stamp: Date.UTC(2022, 2, 3, 10, 0, 0) });
    const later = await record(owner, { sdg: 14, stamp: Date.UTC(2022, 2, 3, 10, 0, 1, 999) });
    const gone = await record(owner, { sdg: 14, kind: "video" });
    await deleteContent(gone, owner);
    const ids = async (query: string) => (await harvestAll("ListIdentifiers", `metadataPrefix=oai_dc&${query}`)).pages.flat();
    expect(await ids("set=sdg:14")).toEqual([video, later, gone]);
    expect(await ids("set=kind:video")).toEqual(expect.arrayContaining([video, gone]));
    expect(await ids("set=kind:video")).not.toContain(later);
    expect(await ids("set=sdg:14&from=2022-03-03&until=2022-03-03")).toEqual([video, later]);
    expect(await ids("set=sdg:14&from=2022-03-03T10:00:01Z&until=2022-03-03T10:00:01Z")).toEqual([later]);
    expect(await ids("set=sdg:14&until=2022-03-03T10:00:00Z")).toEqual([video]);
  });

  it("gives a record's metadata as simple Dublin Core, member text escaped and its file only under an open licence", async () => {
    const author = await newMember("Ada <Lovelace> & co");
    const open = await record(author, { sdg: 7 });
    await env.DB.prepare(
      "UPDATE content SET title = ?, keywords = 'solar, wind、grid', doi = '10.1234/abc', published_year = 2021, authors = ? WHERE id = ?",
    )
      .bind("Power \u0001& <light>", JSON.stringify([{ name: "Grace Hopper", orcid: null }]), open)
      .run();
    const reserved = await record(author, { license: "LicenseRef-All-Rights-Reserved" });
    const xml = await get(`verb=GetRecord&metadataPrefix=oai_dc&identifier=${identifier(open)}`);
    const dc = /<oai_dc:dc [^>]*>(.*)<\/oai_dc:dc>/.exec(xml)?.[1];
    const home = `http://${HOST}:8787/records/${open}/`;
    expect(dc).toBe(
      [
        "<dc:title>Power &amp; &lt;light&gt;</dc:title>",
        "<dc:creator>Ada &lt;Lovelace&gt; &amp; co</dc:creator><dc:creator>Grace Hopper</dc:creator>",
        "<dc:subject>SDG 7: Affordable and Clean Energy</dc:subject>",
        "<dc:subject>solar</dc:subject><dc:subject>wind</dc:subject><dc:subject>grid</dc:subject>",
        "<dc:description>Its abstract.</dc:description><dc:date>2021</dc:date><dc:type>Text</dc:type><dc:format>application/pdf</dc:format>",
        `<dc:identifier>${home}</dc:identifier><dc:identifier>${home}${open}.pdf</dc:identifier><dc:identifier>https://doi.org/10.1234/abc</dc:identifier>`,
        "<dc:rights>https://creativecommons.org/licenses/by/4.0/legalcode</dc:rights>",
      ].join(""),
    );
    // Its language, and its owner's translations each in theirs (a machine's suggestion is not among them).
    await env.DB.prepare("UPDATE content SET language = 'en' WHERE id = ?").bind(open).run();
    await env.DB.prepare(
      `INSERT INTO item_texts (content_id, lang, title, summary, source, updated_at) VALUES
         (?1, 'ja', '光の力', '要旨', 'author', 1), (?1, 'zh', '光的力量', '摘要', 'machine', 1)`,
    )
      .bind(open)
      .run();
    const languages = await get(`verb=GetRecord&metadataPrefix=oai_dc&identifier=${identifier(open)}`);
    for (const part of [
      '<dc:title xml:lang="en">Power &amp; &lt;light&gt;</dc:title><dc:title xml:lang="ja">光の力</dc:title><dc:creator>',
      '<dc:description xml:lang="en">Its abstract.</dc:description><dc:description xml:lang="ja">要旨</dc:description><dc:date>',
      "<dc:language>en</dc:language>",
    ])
      expect(languages).toContain(part);
    expect(languages).not.toContain("光的力量");
    // Its funders as contributors and their awards as relations; a funder's decline is not harvested (decision 0052).
    await env.DB.prepare(
      `INSERT INTO item_funding (content_id, funder_name, funder_id, funder_id_type, award_number, award_uri, state, created_at) VALUES
         (?1, 'U.S. National Science Foundation', 'https://ror.org/021nxhr62', 'ROR', '2040', 'https://awards.example/2040', 'named', 1),
         (?1, 'Declined & fund', NULL, NULL, '', '', 'declined', 1)`,
    )
      .bind(open)
      .run();
    const funded = await get(`verb=GetRecord&metadataPrefix=oai_dc&identifier=${identifier(open)}`);
    expect(funded).toContain("<dc:contributor>U.S. National Science Foundation</dc:contributor>");
    expect(funded).toContain("<dc:relation>https://awards.example/2040</dc:relation>");
    expect(funded).not.toContain("Declined");
    const closed = await get(`verb=GetRecord&metadataPrefix=oai_dc&identifier=${identifier(reserved)}`);
    expect(closed).not.toContain(`${reserved}.pdf`);
    expect(closed).toContain("<dc:rights>All rights reserved</dc:rights>");
  });
});
