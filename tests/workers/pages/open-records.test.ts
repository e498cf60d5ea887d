import { env } from "cloudflare:workers";
import LinkHeader from "http-link-header";
import { describe, expect, it } from "vitest";
import { deleteAccount } from "~/.server/accounts/delete-account";
import { saveCaptions } from "~/.server/content/captions";
import { deleteContent } from "~/.server/content/content";
import { SCHOLAR_PDF_BYTES } from "~/lib/limits";
import * as detail from "~/routes/content-detail/route";
import * as recordFile from "~/routes/records/file";
import * as record from "~/routes/records/record";
import * as robots from "~/routes/robots";
import * as sitemapIndex from "~/routes/sitemaps/index";
import * as sitemap from "~/routes/sitemaps/records";
import { newItem, newMember, testCaller } from "../helpers";
import { callRoute, sessionFor } from "../route";
import { account, PASSWORD } from "./page-helpers";

// What anonymous readers and crawlers are given (decision 0049): an open record where the operator
// allows them (on in this pool) and the owner opened it, its file only under a licence that lets
// anyone read it, and for everything else the way to sign in, which says nothing of what exists.

describe("/robots.txt and the sitemaps", () => {
  it("let crawlers read the open records only, and list each open record's page and open file with when it changed", async () => {
    const answer = await callRoute(robots, { path: "/robots.txt", inLayout: false });
    expect([answer.status, answer.headers.get("Content-Type")]).toEqual([200, "text/plain; charset=utf-8"]);
    expect(answer.body).toBe("User-agent: *\nAllow: /records/\nAllow: /oai\nDisallow: /\n\nSitemap: http://127.0.0.1:8787/sitemap.xml\n");
    const owner = await newMember("Mapped");
    const [open, reserved, closed] = [
      await item(owner),
      await item(owner, { license: "LicenseRef-All-Rights-Reserved" }),
      await item(owner, { open: 0 }),
    ];
    const index = await callRoute(sitemapIndex, { path: "/sitemap.xml", inLayout: false });
    expect(index.headers.get("Content-Type")).toBe("application/xml; charset=utf-8");
    const children = [...index.body.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => m[1] ?? "");
    expect(children[0]).toBe("http://127.0.0.1:8787/sitemaps/records-1.xml");
    const listed = new Set<string>();
    for (const child of children) {
      const file = child.slice(child.lastIndexOf("/") + 1);
      const map = await callRoute(sitemap, { path: `/sitemaps/${file}`, params: { file }, inLayout: false });
      for (const m of map.body.matchAll(/<loc>([^<]+)<\/loc><lastmod>[^<]+<\/lastmod>/g)) listed.add(m[1] ?? "");
    }
    const at = (path: string) => `http://127.0.0.1:8787${path}`;
    for (const path of [`/records/${open}/`, `/records/${open}/${open}.pdf`, `/records/${reserved}/`]) expect(listed).toContain(at(path));
    for (const path of [`/records/${reserved}/${reserved}.pdf`, `/records/${closed}/`]) expect(listed).not.toContain(at(path));
    const none = await callRoute(sitemap, { path: "/sitemaps/records-999.xml", params: { file: "records-999.xml" }, inLayout: false });
    expect(none.status).toBe(404);
  });
});

/** An item of `owner` with its file in R2, opened (or not) under a licence. */
async function item(owner: number, { open = 1, license = "CC-BY-4.0", publicize = 1 as 0 | 1 } = {}) {
  const id = await newItem(owner, { title: "Rainfall in twelve towns", summary: "What we measured.", publicize });
  await env.DB.prepare("UPDATE content SET open_record = ?, license = ?, published_year = 2019 WHERE id = ?").bind(open, license, id).run();
  const keys = await env.DB.prepare("SELECT file_key, thumbnail_key FROM content WHERE id = ?").bind(id).first<Record<string, string>>();
  await env.FILES.put(keys?.file_key ?? "", "%PDF-1.4 open", { httpMetadata: { contentType: "application/pdf" } });
  await env.FILES.put(keys?.thumbnail_key ?? "", "png", { httpMetadata: { contentType: "image/png" } });
  return id;
}

type Page = {
  item: { id: number; title: string; published_year: number | null };
  file: string | null;
  home: string;
  references: Record<string, string>;
};
const page = (id: number, token?: string) =>
  callRoute<Page>(record, { path: `/records/${id}/`, params: { id: String(id) }, token, inLayout: false });
const file = (id: number, name: string, token?: string) =>
  callRoute(recordFile, { path: `/records/${id}/${name}`, params: { id: String(id), file: name }, token, inLayout: false });
const toLogin = (id: number) => `/login?redirect=${encodeURIComponent(`/retrieval/detail?id=${id}`)}`;

describe("an open record", () => {
  it("is read by anyone, signed in or not: its page, its file in the page's directory, its thumbnail", async () => {
    const owner = await newMember("Clean Water Lab");
    const id = await item(owner);
    const member = await sessionFor(await newMember("Reader"));
    for (const token of [undefined, member]) {
      const shown = await page(id, token);
      expect(shown.status).toBe(200);
      expect(shown.data.item).toMatchObject({ id, title: "Rainfall in twelve towns", published_year: 2019 });
      expect([shown.data.home, shown.data.file]).toEqual([
        `http://127.0.0.1:8787/records/${id}/`,
        `http://127.0.0.1:8787/records/${id}/${id}.pdf`,
      ]);
      expect(shown.data.references.bibtex).toContain("Rainfall in twelve towns");
      const pdf = await file(id, `${id}.pdf`, token);
      expect([pdf.status, pdf.body]).toEqual([200, "%PDF-1.4 open"]);
      expect((await file(id, "thumbnail", token)).status).toBe(200);
    }
    expect((await file(id, "other.pdf")).status).toBe(404);
    // The members' page of the item links to it.
    const detailed = await callRoute<{ recordUrl: string | null }>(detail, { path: `/retrieval/detail?id=${id}`, token: member });
    expect(detailed.data.recordUrl).toBe(`/records/${id}/`);
  });

  it("gives an open video's captions beside it, and their text as its transcript, where its licence lets anyone watch it", async () => {
    const owner = await newMember("Captioned");
    const video = async (license: string) => {
      const id = await newItem(owner, { kind: "video", title: "Rainfall sensors" });
      await env.DB.prepare("UPDATE content SET open_record = 1, license = ? WHERE id = ?").bind(license, id).run();
      await saveCaptions(id, "ja", [{ start_ms: 0, end_ms: 900, text: "雨量計" }], "owner", Date.now());
      await saveCaptions(
        id,
        "en",
        [0, 1].map((i) => ({ start_ms: i * 1000, end_ms: i * 1000 + 900, text: `line ${i}` })),
        "owner",
        Date.now(),
      );
      return id;
    };
    const [open, reserved] = [await video("CC-BY-4.0"), await video("LicenseRef-All-Rights-Reserved")];
    const home = `http://127.0.0.1:8787/records/${open}/`;
    type Captioned = { tracks: { lang: string; url: string }[]; transcript: string | null };
    const shown = (await callRoute<Captioned>(record, { path: `/records/${open}/`, params: { id: String(open) }, inLayout: false })).data;
    expect(shown.tracks).toEqual([
      { lang: "en", url: `${home}captions-en.vtt` },
      { lang: "ja", url: `${home}captions-ja.vtt` },
    ]);
    expect(shown.transcript).toBe("line 0 line 1");
    const vtt = await file(open, "captions-ja.vtt");
    expect([vtt.status, vtt.headers.get("Content-Type"), vtt.body]).toEqual([
      200,
      "text/vtt; charset=utf-8",
      expect.stringMatching(/^WEBVTT[\s\S]*雨量計/),
    ]);
    expect((await file(open, "captions-fr.vtt")).status).toBe(404);
    // A long film's transcript stops at 20,000 characters.
    const long = await video("CC-BY-4.0");
    const words = Array.from({ length: 400 }, (_, i) => ({
      start_ms: i * 1000,
      end_ms: i * 1000 + 900,
      text: `${"word ".repeat(19)}w${i}`,
    }));
    await saveCaptions(long, "en", words, "owner", Date.now());
    const film = (await callRoute<Captioned>(record, { path: `/records/${long}/`, params: { id: String(long) }, inLayout: false })).data;
    expect([film.transcript?.length, film.transcript?.startsWith("word word")]).toEqual([20_000, true]);
    const kept = (await callRoute<Captioned>(record, { path: `/records/${reserved}/`, params: { id: String(reserved) }, inLayout: false }))
      .data;
    expect([kept.tracks, kept.transcript]).toEqual([[], null]);
    expect((await file(reserved, "captions-en.vtt")).location).toBe(toLogin(reserved));
  });

  it("tells the owner, and only them, when their open PDF is larger than Scholar reads whole", async () => {
    const owner = await newMember("Large");
    const [large, small, closed] = [await item(owner), await item(owner), await item(owner, { open: 0 })];
    const size = (id: number, bytes: number) => env.DB.prepare("UPDATE content SET file_size = ? WHERE id = ?").bind(bytes, id).run();
    await size(large, SCHOLAR_PDF_BYTES + 1);
    await size(small, SCHOLAR_PDF_BYTES);
    await size(closed, SCHOLAR_PDF_BYTES + 1);
    const noted = async (id: number, viewer: number) =>
      (await callRoute<{ largePdf: boolean }>(detail, { path: `/retrieval/detail?id=${id}`, token: await sessionFor(viewer) })).data
        .largePdf;
    expect([await noted(large, owner), await noted(small, owner), await noted(closed, owner)]).toEqual([true, false, false]);
    expect(await noted(large, await newMember("Reader"))).toBe(false);
  });

  it("signposts its identifier, authors, licence, file, type and metadata, and each of those back (FAIR Signposting level 1)", async () => {
    const owner = await newMember("Signed");
    // An iD no other test authenticates (this pool shares its database: citations.test.ts counts on its own).
    await env.DB.prepare("UPDATE users SET orcid = '0000-0003-1419-2405' WHERE id = ?").bind(owner).run();
    const id = await item(owner);
    await env.DB.prepare("UPDATE content SET doi = '10.5555/open.1' WHERE id = ?").bind(id).run();
    const home = `http://127.0.0.1:8787/records/${id}/`;
    const links = LinkHeader.parse((await page(id)).headers.get("Link") ?? "");
    const hrefs = (rel: string) => links.rel(rel).map((link) => link.uri);
    expect(hrefs("cite-as")).toEqual(["https://doi.org/10.5555/open.1"]);
    expect(hrefs("author")).toEqual(["https://orcid.org/0000-0003-1419-2405"]);
    expect(hrefs("license")).toEqual(["https://creativecommons.org/licenses/by/4.0/legalcode"]);
    expect(links.rel("item").map((link) => [link.uri, link.type])).toEqual([[`${home}${id}.pdf`, "application/pdf"]]);
    expect(hrefs("type")).toEqual(["https://schema.org/ScholarlyArticle", "https://schema.org/AboutPage"]);
    expect(hrefs("describedby")).toEqual([`${home}citation.bib`, `${home}citation.ris`, `${home}citation.json`]);
    const back = async (name: string, rel: string) =>
      LinkHeader.parse((await file(id, name)).headers.get("Link") ?? "")
        .rel(rel)
        .map((link) => link.uri);
    expect(await back(`${id}.pdf`, "collection")).toEqual([home]);
    const bib = await file(id, "citation.bib");
    expect([bib.headers.get("Content-Type"), await back("citation.ris", "describes")]).toEqual([
      "application/x-bibtex; charset=utf-8",
      [home],
    ]);
    expect(bib.body).toContain(home);
    // The same links as one document (RFC 9264), which the page's header names.
    expect(links.rel("linkset").map((link) => [link.uri, link.type])).toEqual([[`${home}linkset`, "application/linkset+json"]]);
    const set = await file(id, "linkset");
    expect(set.headers.get("Content-Type")).toBe("application/linkset+json");
    const { linkset } = JSON.parse(set.body) as { linkset: ({ anchor: string } & Record<string, { href: string }[]>)[] };
    const at = (anchor: string) => linkset.find((entry) => entry.anchor === anchor);
    for (const rel of ["cite-as", "author", "license", "item", "type", "describedby"])
      expect(
        at(home)?.[rel]?.map((link) => link.href),
        rel,
      ).toEqual(hrefs(rel));
    expect(at(`${home}${id}.pdf`)?.collection).toEqual([{ href: home, type: "text/html" }]);
    expect(at(`${home}citation.bib`)?.describes).toEqual([{ href: home, type: "text/html" }]);
  });

  it("keeps a file whose licence reserves every right for members, and names no file to fetch, signed in or not", async () => {
    const owner = await newMember("Owner");
    const id = await item(owner, { license: "LicenseRef-All-Rights-Reserved" });
    for (const token of [undefined, await sessionFor(owner), await sessionFor(await newMember("Reader"))]) {
      expect((await page(id, token)).data.file).toBeNull();
      const pdf = await file(id, `${id}.pdf`, token);
      expect([pdf.status, pdf.location]).toEqual([302, toLogin(id)]);
    }
  });

  it("sends a visitor to sign in for an item not opened, private, hidden or that does not exist", async () => {
    const owner = await newMember("Owner");
    const closed = await item(owner, { open: 0 });
    const private_ = await item(owner, { publicize: 0 });
    const hidden = await item(owner);
    await env.DB.prepare("UPDATE content SET hidden_at = 1, hidden_publicize = 1, publicize = 0 WHERE id = ?").bind(hidden).run();
    for (const id of [closed, private_, hidden, 987_654_321]) {
      for (const answer of [await page(id), await file(id, `${id}.pdf`), await page(id, await sessionFor(owner))])
        expect([answer.status, answer.location], String(id)).toEqual([302, toLogin(id)]);
    }
  });

  it("answers 410 Gone once an open record's item is deleted, and a closed one's stays unknown", async () => {
    const owner = await newMember("Owner");
    const [open, closed] = [await item(owner), await item(owner, { open: 0 })];
    for (const id of [open, closed]) expect(await deleteContent(id, owner)).toBe(true);
    for (const token of [undefined, await sessionFor(await newMember("Reader"))]) {
      expect([(await page(open, token)).status, (await file(open, `${open}.pdf`, token)).status]).toEqual([410, 410]);
      expect((await page(closed, token)).status).toBe(302);
    }
  });

  it("answers 410 Gone for the open records of an account deleted", async () => {
    const gone = await account();
    const id = await item(gone.id);
    await deleteAccount(gone.id, PASSWORD, testCaller(Date.now()).caller);
    expect((await page(id)).status).toBe(410);
  });
});
