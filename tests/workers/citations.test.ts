import { env } from "cloudflare:workers";
import { parse as parseBibtex } from "@retorquere/bibtex-parser";
import { parse as parseRis } from "astrocite-ris";
import { describe, expect, it } from "vitest";
import { linkOrcid } from "~/.server/accounts/orcid";
import { createSession } from "~/.server/accounts/sessions";
import { updateContent } from "~/.server/content/content";
import { handleApi } from "~/api/router";
import { editContentSchema } from "~/lib/schemas/content";
import { newItem, newMember, newOrcid, testCaller } from "./helpers";

// Citations and identifiers (issue 17), read back by parsers nobody here wrote.

async function api(token: string, path: string, language: "en" | "ja" | "zh" = "en") {
  const { caller, settle } = testCaller();
  const request = new Request(`https://app.test/api${path}`, { headers: { Authorization: `Bearer ${token}` } });
  const response = await handleApi({ ...caller, language, request });
  await settle();
  return { status: response.status, body: (await response.json()) as { data: Record<string, unknown> } };
}

/** A profile row with these names, shown to others when `shown`. */
const profile = (userId: number, first: string, family: string, shown: boolean) =>
  env.DB.prepare(
    `INSERT INTO profiles (user_id, sex, birthday, address, first_name, middle_name, family_name, country, nationality, academic,
       research, website, phone, purpose, public, updated_at) VALUES (?, 'unsaid', '1990-01-01', 'a', ?, '', ?, 'JP', 'JP', 'a', 'r', '', '', 'p', ?, 1)`,
  )
    .bind(userId, first, family, shown ? 1 : 0)
    .run();

async function citedItem(onBehalf: "0" | "1" = "0") {
  const owner = await newMember("Aiko Tanaka");
  await profile(owner, "Aiko", "Tanaka", true);
  const id = await newItem(owner, { title: "Safe drinking water in small towns", created_at: Date.UTC(2026, 10, 2) });
  // Through the edit form's own schema, as a member would type it.
  const fields = editContentSchema.parse({
    sdg: "6",
    title: "Safe drinking water in small towns",
    summary: "Field data from five towns",
    content: "c",
    keywords: "water, filters",
    publicize: "1",
    doi: "https://doi.org/10.5555/WATER.2026",
    authors: "Noor Haddad, 0000-0002-1825-0097\nSam Rivera",
    on_behalf: onBehalf,
  });
  await updateContent(id, owner, fields, Date.now());
  return { owner, id, token: await createSession(owner, Date.now()) };
}

describe("an item's identifiers", () => {
  it("keep the DOI bare and the co-authors with their checked ORCID iDs, in the API", async () => {
    const { id, token } = await citedItem();
    const { body } = await api(token, `/contents/${id}`);
    expect(body.data.content).toMatchObject({
      doi: "10.5555/water.2026",
      authors: [
        { name: "Noor Haddad", orcid: "0000-0002-1825-0097" },
        { name: "Sam Rivera", orcid: null },
      ],
      citation_url: `/api/contents/${id}/citation`,
    });
  });

  it("refuse a DOI that is not one and an ORCID iD whose check digit is wrong, naming the line", () => {
    const base = { sdg: "1", title: "t", summary: "s", content: "c", keywords: "k", publicize: "1" };
    const doi = editContentSchema.safeParse({ ...base, doi: "not-a-doi" });
    expect(doi.error?.issues.map((i) => i.message)).toEqual(["validation.doiInvalid"]);
    const orcid = editContentSchema.safeParse({ ...base, authors: "Noor Haddad\nSam Rivera, 0000-0002-1825-0098" });
    expect(orcid.error?.issues.map((i) => i.message)).toEqual(["validation.authorLineInvalid|line=2"]);
    expect(editContentSchema.parse(base)).toMatchObject({ doi: null, authors: [] });
  });
});

describe("citations", () => {
  it("in BibTeX parse back with the title, every author in order and the DOI", async () => {
    const { id, token } = await citedItem();
    const { body } = await api(token, `/contents/${id}/citation?format=bibtex`);
    expect(body.data.format).toBe("bibtex");
    const library = parseBibtex(String(body.data.text));
    expect(library.errors).toEqual([]);
    const [entry] = library.entries;
    expect(entry?.fields.title).toBe("Safe drinking water in small towns");
    expect(entry?.fields.doi).toBe("10.5555/water.2026");
    expect(entry?.fields.author?.map((a) => a.lastName)).toEqual(["Tanaka", "Haddad", "Rivera"]);
    expect(entry?.fields.year).toBe("2026");
  });

  it("name the co-authors only, in every format, when the uploader put the work up for them", async () => {
    const { id, token } = await citedItem("1");
    const { body } = await api(token, `/contents/${id}`);
    expect(body.data.content).toMatchObject({ on_behalf: 1 });
    const [entry] = parseBibtex(String((await api(token, `/contents/${id}/citation?format=bibtex`)).body.data.text)).entries;
    expect(entry?.fields.author?.map((a) => a.lastName)).toEqual(["Haddad", "Rivera"]);
    const [record] = parseRis(String((await api(token, `/contents/${id}/citation?format=ris`)).body.data.text));
    expect(record?.author?.map((a: { family?: string }) => a.family)).toEqual(["Haddad", "Rivera"]);
    const csl = JSON.parse(String((await api(token, `/contents/${id}/citation?format=csl-json`)).body.data.text));
    expect(csl[0].author.map((a: { family?: string }) => a.family)).toEqual(["Haddad", "Rivera"]);
  });

  it("carry the language of the original title in every format, never a translation's title", async () => {
    const { id, token } = await citedItem();
    await env.DB.prepare("UPDATE content SET language = 'en' WHERE id = ?").bind(id).run();
    await env.DB.prepare(
      "INSERT INTO item_texts (content_id, lang, title, summary, source, updated_at) VALUES (?, 'ja', '小さな町の安全な飲み水', '要旨', 'author', 1)",
    )
      .bind(id)
      .run();
    const csl = JSON.parse(String((await api(token, `/contents/${id}/citation?format=csl-json`)).body.data.text));
    expect(csl[0]).toMatchObject({ language: "en", title: "Safe drinking water in small towns" });
    const bib = String((await api(token, `/contents/${id}/citation?format=bibtex`)).body.data.text);
    const [entry] = parseBibtex(bib).entries;
    expect([entry?.fields.title, entry?.fields.language]).toEqual(["Safe drinking water in small towns", "en"]);
    const ris = String((await api(token, `/contents/${id}/citation?format=ris`)).body.data.text);
    const [record] = parseRis(ris);
    expect([record?.title, record?.language]).toEqual(["Safe drinking water in small towns", "en"]);
  });

  it("refuse a work put up for its authors that names none", () => {
    const base = { sdg: "1", title: "t", summary: "s", content: "c", keywords: "k", publicize: "1", on_behalf: "1" };
    const refused = editContentSchema.safeParse(base);
    expect(refused.error?.issues.map((i) => [i.path.join("."), i.message])).toEqual([["authors", "validation.authorsNeeded"]]);
    expect(editContentSchema.parse({ ...base, authors: "Noor Haddad" })).toMatchObject({ on_behalf: "1" });
  });

  it("in RIS parse back the same", async () => {
    const { id, token } = await citedItem();
    const { body } = await api(token, `/contents/${id}/citation?format=ris`);
    const [record] = parseRis(String(body.data.text));
    expect(record?.title).toBe("Safe drinking water in small towns");
    expect(record?.DOI).toBe("10.5555/water.2026");
    expect(record?.author?.map((a: { family?: string }) => a.family)).toEqual(["Tanaka", "Haddad", "Rivera"]);
  });

  it("in CSL-JSON, APA and Harvard, the references in the member's language", async () => {
    const { id, token } = await citedItem();
    const csl = JSON.parse(String((await api(token, `/contents/${id}/citation?format=csl-json`)).body.data.text));
    expect(csl[0]).toMatchObject({ DOI: "10.5555/water.2026", title: "Safe drinking water in small towns" });
    const apa = String((await api(token, `/contents/${id}/citation?format=apa`)).body.data.text);
    expect(apa).toContain("Tanaka, A., Haddad, N., & Rivera, S. (2026)");
    expect(apa).toContain("https://doi.org/10.5555/water.2026");
    const harvard = String((await api(token, `/contents/${id}/citation?format=harvard`)).body.data.text);
    expect(harvard).toContain("Safe drinking water in small towns");
    expect(harvard).not.toBe(apa);
    // The style's own words follow the member's language where its locale has them (Japanese dates the year).
    const ja = String((await api(token, `/contents/${id}/citation?format=apa`, "ja")).body.data.text);
    expect(ja).toContain("(2026年)");
    const zh = String((await api(token, `/contents/${id}/citation?format=apa`, "zh")).body.data.text);
    expect(zh).toContain("Safe drinking water in small towns");
  });

  it("name an uploader without public names by their nick name, whole, in every format", async () => {
    const nick = "T3 pdf off e9358";
    for (const shown of [null, false]) {
      const owner = await newMember(nick);
      if (shown === false) await profile(owner, "Hidden", "Names", false);
      const id = await newItem(owner, { title: "Nick-named study", created_at: Date.UTC(2026, 10, 2) });
      const token = await createSession(owner, Date.now());
      const text = async (format: string) => String((await api(token, `/contents/${id}/citation?format=${format}`)).body.data.text);
      expect(JSON.parse(await text("csl-json"))[0].author).toEqual([{ literal: nick }]);
      const library = parseBibtex(await text("bibtex"));
      expect(library.errors).toEqual([]);
      expect(library.entries[0]?.fields.author?.map((a) => a.lastName ?? a.name)).toEqual([nick]);
      expect(await text("apa")).toMatch(/^T3 pdf off e9358\. \(2026/);
      expect(await text("harvard")).toContain(nick);
      expect(await text("ris")).toContain(`AU  - ${nick}`);
    }
  });

  it("carry authenticated ORCID iDs and the year published in every format; a typed iD stays out and unverified", async () => {
    const { owner, id, token } = await citedItem();
    // Linked iDs are unique: this test frees the shared example iD again when it is done.
    const ownerId = newOrcid();
    await linkOrcid(owner, { orcid: ownerId, name: "Aiko Tanaka" }, Date.now());
    // Noor Haddad's iD was typed; it becomes authenticated once a member links it by signing in to ORCID.
    const noor = await newMember("Noor Haddad");
    const text = async (format: string) => String((await api(token, `/contents/${id}/citation?format=${format}`)).body.data.text);
    expect(((await api(token, `/contents/${id}`)).body.data.content as { authors: unknown[] }).authors).toEqual([
      { name: "Noor Haddad", orcid: "0000-0002-1825-0097", verified: false },
      { name: "Sam Rivera", orcid: null, verified: false },
    ]);
    let csl = JSON.parse(await text("csl-json"))[0];
    expect(csl.author[0]).toEqual({ family: "Tanaka", given: "Aiko", ORCID: `https://orcid.org/${ownerId}`, "authenticated-orcid": true });
    expect(csl.author[1]).toEqual({ family: "Haddad", given: "Noor" });

    await linkOrcid(noor, { orcid: "0000-0002-1825-0097", name: "Noor Haddad" }, Date.now());
    await env.DB.prepare("UPDATE content SET published_year = 2019 WHERE id = ?").bind(id).run();
    csl = JSON.parse(await text("csl-json"))[0];
    expect(csl.author[1]).toMatchObject({ family: "Haddad", ORCID: "https://orcid.org/0000-0002-1825-0097" });
    expect(csl.issued).toEqual({ "date-parts": [[2019]] });
    const library = parseBibtex(await text("bibtex"));
    expect(library.errors).toEqual([]);
    expect(library.entries[0]?.fields["orcid-numbers"]).toBe(`Tanaka, Aiko/${ownerId}; Haddad, Noor/0000-0002-1825-0097`);
    expect(library.entries[0]?.fields.year).toBe("2019");
    const [record] = parseRis(await text("ris"));
    expect(record?.note).toContain(`Tanaka, Aiko https://orcid.org/${ownerId}`);
    expect(await text("apa")).toContain("(2019)");
    await env.DB.prepare("UPDATE users SET orcid = NULL WHERE id = ?").bind(noor).run();
  });

  it("in BibTeX name each iD's author as the author list does: a nick name without public names whole, never split", async () => {
    // Public names left empty: the uploader is cited by their nick name, one literal name.
    const owner = await newMember("T3 pdf, off e9358");
    await profile(owner, "", "", true);
    const orcid = newOrcid();
    await linkOrcid(owner, { orcid, name: "Someone Else" }, Date.now());
    const id = await newItem(owner, { title: "Nick-named study", created_at: Date.UTC(2026, 10, 2) });
    const { body } = await api(await createSession(owner, Date.now()), `/contents/${id}/citation?format=bibtex`);
    // Verbatim, so the braces that keep a literal name whole are read, as a name list's are.
    const library = parseBibtex(String(body.data.text), { fieldMode: { "orcid-numbers": "verbatim" } });
    expect(library.errors).toEqual([]);
    const [entry] = library.entries;
    const [name, iD] = String(entry?.fields["orcid-numbers"]).split("/");
    const asAuthor = parseBibtex(`@misc{n, author = {${name}}}`).entries[0]?.fields.author;
    expect([asAuthor, iD]).toEqual([entry?.fields.author, orcid]);
    expect(asAuthor).toEqual([{ name: "T3 pdf, off e9358" }]);
    await env.DB.prepare("UPDATE users SET orcid = NULL WHERE id = ?").bind(owner).run();
  });

  it("of a private item exist only for its owner", async () => {
    const owner = await newMember("Private owner");
    const other = await newMember("Other");
    const id = await newItem(owner, { publicize: 0 });
    const token = await createSession(other, Date.now());
    expect((await api(token, `/contents/${id}/citation?format=bibtex`)).status).toBe(404);
  });
});
