import { parse as parseBibtex } from "@retorquere/bibtex-parser";
import { describe, expect, it } from "vitest";
import { exportData } from "~/.server/accounts/export-data";
import { createSession } from "~/.server/accounts/sessions";
import { searchContent, searchQuerySchema } from "~/.server/search/search";
import { handleApi } from "~/api/router";
import * as edit from "~/routes/edit/route";
import { multipart, pdfBytes, pngBytes, textFields } from "../fixtures/files";
import { newItem, newMember, testCaller } from "./helpers";
import { callRoute } from "./route";

// Licences (issue 35): an SPDX identifier per item, CC-BY-4.0 for a new upload, "not specified" for
// items from before; through the API, the citations (parsed back), the data export and search.

async function call(token: string, method: string, path: string, body?: { json?: unknown; raw?: { body: BodyInit; type: string } }) {
  const { caller, settle } = testCaller();
  const headers: Record<string, string> = { Authorization: `Bearer ${token}`, "Content-Type": body?.raw?.type ?? "application/json" };
  const init: RequestInit = {
    method,
    headers,
    body: body?.raw?.body ?? (body?.json === undefined ? undefined : JSON.stringify(body.json)),
  };
  const response = await handleApi({ ...caller, request: new Request(`https://app.test/api${path}`, init) });
  await settle();
  return {
    status: response.status,
    json: (await response.json()) as { data: Record<string, unknown> | null; errors?: Record<string, string[]> },
  };
}

async function upload(token: string, fields: Record<string, string> = {}) {
  const { body, contentType } = multipart([
    ...textFields({ title: `Licensed ${crypto.randomUUID().slice(0, 6)}`, ...fields }),
    { name: "thumbnail", filename: "t.png", type: "image/png", body: pngBytes() },
    { name: "file", filename: "d.pdf", type: "application/pdf", body: pdfBytes() },
  ]);
  return call(token, "POST", "/contents", { raw: { body: await new Response(body).arrayBuffer(), type: contentType } });
}

const licenseOf = async (token: string, id: unknown) =>
  ((await call(token, "GET", `/contents/${id}`)).json.data?.content as { license: string | null } | undefined)?.license;

describe("an item's licence", () => {
  it("defaults to CC-BY-4.0, takes any SPDX identifier, refuses others, and an edit keeps it unless it says otherwise", async () => {
    const token = await createSession(await newMember("Licensor"), Date.now());
    const plain = await upload(token);
    expect(plain.status).toBe(201);
    expect(await licenseOf(token, plain.json.data?.id)).toBe("CC-BY-4.0");
    const mit = await upload(token, { license: "MIT" });
    expect(await licenseOf(token, mit.json.data?.id)).toBe("MIT");
    const unknown = await upload(token, { license: "Made-Up-1.0" });
    expect([unknown.status, unknown.json.errors?.license]).toEqual([400, ["Choose a licence from the list."]]);

    const id = mit.json.data?.id;
    const fields = { sdg: 6, title: "Edited", summary: "s", content: "c", keywords: "k", publicize: "1" };
    expect((await call(token, "PATCH", `/contents/${id}`, { json: fields })).status).toBe(200);
    expect(await licenseOf(token, id)).toBe("MIT");
    await call(token, "PATCH", `/contents/${id}`, { json: { ...fields, license: "LicenseRef-All-Rights-Reserved" } });
    expect(await licenseOf(token, id)).toBe("LicenseRef-All-Rights-Reserved");
  });

  it("takes another licence by the identifier typed beside the forms' select, and refuses an empty or unknown one", async () => {
    const member = await newMember("Typist");
    const token = await createSession(member, Date.now());
    const typed = await upload(token, { license: "other", license_other: " GPL-2.0-only " });
    expect(await licenseOf(token, typed.json.data?.id)).toBe("GPL-2.0-only");
    for (const other of ["", "Made-Up-1.0"]) {
      const refused = await upload(token, { license: "other", license_other: other });
      expect([refused.status, refused.json.errors?.license], other).toEqual([400, ["Choose a licence from the list."]]);
    }
    // The edit page offers the item's own licence beside the common ones, and takes another the same way.
    const id = Number(typed.json.data?.id);
    const path = `/retrieval/detail/edit?id=${id}`;
    const page = await callRoute<{ licenses: { common: { id: string }[]; current: { id: string } | null } }>(edit, { path, token });
    expect([page.data.licenses.current?.id, page.data.licenses.common.some((l) => l.id === "GPL-2.0-only")]).toEqual([
      "GPL-2.0-only",
      false,
    ]);
    const fields = { intent: "edit", sdg: "6", title: "Edited", summary: "s", content: "c", keywords: "k", publicize: "1" };
    const saved = await callRoute(edit, { path, token, form: { ...fields, license: "other", license_other: "CC-BY-3.0" } });
    expect(saved.status).toBe(303);
    expect(await licenseOf(token, id)).toBe("CC-BY-3.0");
    const refused = await callRoute<{ result: { error: Record<string, string[]>; initialValue: Record<string, string> } }>(edit, {
      path,
      token,
      form: { ...fields, license: "other", license_other: "" },
    });
    expect([refused.status, refused.data.result.error.license]).toEqual([400, ["validation.licenseUnknown"]]);
    expect(await licenseOf(token, id)).toBe("CC-BY-3.0");
  });

  it("of an item from before licences is not specified, in the API and the citation", async () => {
    const owner = await newMember("Old uploader");
    const token = await createSession(owner, Date.now());
    const id = await newItem(owner, { title: "Before licences" });
    expect(await licenseOf(token, id)).toBeNull();
    const csl = JSON.parse(String((await call(token, "GET", `/contents/${id}/citation?format=csl-json`)).json.data?.text));
    expect(csl[0].license).toBeUndefined();
  });

  it("is in the CSL-JSON and, as license and copyright, in the BibTeX", async () => {
    const token = await createSession(await newMember("Licensor"), Date.now());
    const { json } = await upload(token, { license: "CC-BY-SA-4.0" });
    const text = async (format: string) =>
      String((await call(token, "GET", `/contents/${json.data?.id}/citation?format=${format}`)).json.data?.text);
    expect(JSON.parse(await text("csl-json"))[0].license).toBe("CC-BY-SA-4.0");
    const library = parseBibtex(await text("bibtex"));
    expect(library.errors).toEqual([]);
    expect(library.entries[0]?.fields.license).toBe("CC-BY-SA-4.0");
    expect(library.entries[0]?.fields.copyright).toBe("Creative Commons Attribution Share Alike 4.0 International");
  });

  it("is in the data export, and search can filter by it", async () => {
    const member = await newMember("Licensor");
    const token = await createSession(member, Date.now());
    const word = `lichen${crypto.randomUUID().slice(0, 6)}`;
    const cc0 = await upload(token, { license: "CC0-1.0", title: `${word} survey` });
    const mit = await upload(token, { license: "MIT", title: `${word} code` });
    const search = (license?: string) =>
      searchContent(searchQuerySchema.parse({ q: word, ...(license ? { license } : {}) }), member, Date.now()).then(({ hits }) =>
        hits.map((h) => h.id),
      );
    expect((await search()).sort()).toEqual([cc0.json.data?.id, mit.json.data?.id].sort());
    expect(await search("CC0-1.0")).toEqual([cc0.json.data?.id]);
    expect(await search("Apache-2.0")).toEqual([]);

    const exported = JSON.parse(await new Response(exportData(member, Date.now(), "https://app.test")).text()) as {
      uploads: { id: number; license: string }[];
    };
    expect(exported.uploads.map((u) => u.license).sort()).toEqual(["CC0-1.0", "MIT"]);
  });
});
