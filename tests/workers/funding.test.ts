import { env } from "cloudflare:workers";
import { parse as parseBibtex } from "@retorquere/bibtex-parser";
import { describe, expect, it } from "vitest";
import { exportData } from "~/.server/accounts/export-data";
import { createSession } from "~/.server/accounts/sessions";
import { addFunding, claimFunding, decideFunding, fundingOf, supportedRead } from "~/.server/content/funding";
import { linkOrganisation, unlinkOrganisation } from "~/.server/members/organisation";
import { readOne } from "~/.server/reads";
import { NOT_AVAILABLE } from "~/.server/social/block-rules";
import { block } from "~/.server/social/blocks";
import { FUNDING_MAX } from "~/lib/limits";
import { funderIdentifier, fundingSchema } from "~/lib/schemas/funding";
import { apiCall as call, apiJson as json } from "./api-call";
import { newItem, newMember, refusalOf } from "./helpers";

// Funding on items (issue 52) with DataCite's names: a funder by ROR id is checked with the
// registry (its stand-in) and is the member who linked that organisation, who sees the work under
// "research we supported" until they decline it; at most FUNDING_MAX an item, even all at once.

const reference = (fields: Record<string, string>) => fundingSchema.parse({ funder_name: "A funder", ...fields });

/** A fund account that linked `ror`; `confirmed`, as a reviewer confirms it with its verification (claiming what names it). */
async function fundAccount(ror: string, confirmed = false) {
  const fund = await newMember(`Fund ${crypto.randomUUID().slice(0, 6)}`, 2);
  await env.DB.prepare("UPDATE users SET kind = 'facilitator' WHERE id = ?").bind(fund).run();
  await linkOrganisation(fund, ror, "en", 1);
  if (confirmed)
    await env.DB.batch([
      env.DB.prepare("UPDATE users SET organisation_ror_confirmed = organisation_ror WHERE id = ?").bind(fund),
      claimFunding(ror),
    ]);
  return fund;
}

describe("funding on an item", () => {
  it("reads a funder's identifier in its usual forms, and refuses anything else", () => {
    expect(funderIdentifier("ror.org/00097MB19")).toEqual({ id: "https://ror.org/00097mb19", type: "ROR" });
    expect(funderIdentifier("https://doi.org/10.13039/501100002241")).toEqual({ id: "10.13039/501100002241", type: "Crossref Funder ID" });
    expect(funderIdentifier("")).toBeNull();
    expect(funderIdentifier("JST")).toBeUndefined();
    expect(fundingSchema.safeParse({ funder_name: "X", award_uri: "http://insecure.example" }).success).toBe(false);
  });

  it("names the fund whose ROR record a reviewer confirmed, who confirms one work and declines another", async () => {
    // A fund account that linked the id unconfirmed is not named: linking speaks for nobody.
    const pretender = await fundAccount("https://ror.org/004rtk039");
    const early = await newItem(await newMember("Early Researcher"));
    await addFunding(early, reference({ funder_name: "AMED", funder_id: "https://ror.org/004rtk039" }), 1);
    expect((await fundingOf(early))[0]?.funder_member).toBeNull();
    await unlinkOrganisation(pretender);
    const fund = await fundAccount("https://ror.org/004rtk039", true);
    // Confirmed, it is given the work named before.
    expect((await fundingOf(early))[0]?.funder_member).toBe(fund);
    const researcher = await newMember("Funded Researcher");
    const [right, wrong] = [await newItem(researcher, { title: "Funded work" }), await newItem(researcher, { title: "Named by mistake" })];
    for (const id of [right, wrong])
      await addFunding(id, reference({ funder_name: "AMED", funder_id: "https://ror.org/004rtk039", award_number: "JP123" }), 1);
    const [named] = await fundingOf(right);
    expect(named).toMatchObject({ funder_id_type: "ROR", funder_member: fund, state: "named", award_number: "JP123" });
    const supported = () => readOne(supportedRead(fund, fund));
    expect((await supported()).map((w) => [w.title, w.state])).toEqual([
      ["Named by mistake", "named"],
      ["Funded work", "named"],
      ["t", "named"],
    ]);
    const [wrongRef] = await fundingOf(wrong);
    expect(await decideFunding(fund, named?.id ?? 0, "confirmed")).toBe(true);
    expect(await decideFunding(fund, wrongRef?.id ?? 0, "declined")).toBe(true);
    // Nobody else decides for the fund.
    expect(await decideFunding(researcher, named?.id ?? 0, "declined")).toBe(false);
    expect((await supported()).map((w) => [w.title, w.state])).toEqual([
      ["Funded work", "confirmed"],
      ["t", "named"],
    ]);
  });

  it("lets a fund go of the works it had not decided on when it links another organisation, but not when it saves the same", async () => {
    const researcher = await newMember("Early Researcher");
    const work = await newItem(researcher, { title: "Named before the fund arrived" });
    await addFunding(work, reference({ funder_name: "PKU", funder_id: "https://ror.org/02v51f717" }), 1);
    const fund = await fundAccount("https://ror.org/02v51f717", true);
    expect((await readOne(supportedRead(fund, fund))).map((w) => [w.title, w.state])).toEqual([["Named before the fund arrived", "named"]]);
    await linkOrganisation(fund, "https://ror.org/02v51f717", "en", 3);
    expect((await fundingOf(work))[0]?.funder_member).toBe(fund);
    await linkOrganisation(fund, "https://ror.org/03cve4549", "en", 4);
    expect(await readOne(supportedRead(fund, fund))).toEqual([]);
    expect((await fundingOf(work))[0]?.funder_member).toBeNull();
  });

  it("names a supporter who is a member directly, unless they cannot be reached; unlinking an organisation keeps it", async () => {
    const supporter = await newMember("Angel Supporter", 2);
    const owner = await newMember("Supported Researcher");
    const work = await newItem(owner, { title: "Backed by an angel" });
    const named = reference({ funder_name: "Angel Supporter", funder_member: String(supporter) });
    expect(await addFunding(work, named, 1)).toBe("stored");
    expect((await readOne(supportedRead(supporter, supporter))).map((w) => [w.title, w.state])).toEqual([["Backed by an angel", "named"]]);
    await unlinkOrganisation(supporter);
    expect((await fundingOf(work))[0]?.funder_member).toBe(supporter);
    // Nobody names themselves, nor a member with a block between them; nothing is stored.
    const other = await newItem(owner);
    expect(await refusalOf(addFunding(other, reference({ funder_member: String(owner) }), 1))).toMatchObject({ key: NOT_AVAILABLE });
    const blocker = await newMember("Blocking Supporter", 2);
    await block(blocker, owner, 1);
    expect(await refusalOf(addFunding(other, reference({ funder_member: String(blocker) }), 1))).toMatchObject({ key: NOT_AVAILABLE });
    expect(await fundingOf(other)).toEqual([]);
  });

  it("stores the same reference posted twice at once once", async () => {
    const owner = await newMember("Twice Funded");
    const id = await newItem(owner);
    const same = reference({
      funder_name: "Japan Science and Technology Agency",
      funder_id: "10.13039/501100002241",
      award_number: "JPMJ1",
    });
    const posted = await Promise.all(Array.from({ length: 5 }, () => addFunding(id, same, 1)));
    expect(posted.sort()).toEqual(["repeat", "repeat", "repeat", "repeat", "stored"]);
    expect(await fundingOf(id)).toHaveLength(1);
    // Another award of the same funder is another reference.
    expect(await addFunding(id, { ...same, award_number: "JPMJ2" }, 1)).toBe("stored");
  });

  it("refuses a ROR id the registry does not hold, and more than FUNDING_MAX references even at once", async () => {
    const owner = await newMember("Many Funders");
    const id = await newItem(owner);
    expect(await refusalOf(addFunding(id, reference({ funder_id: "https://ror.org/0abcdef12" }), 1))).toMatchObject({
      key: "ror.notFound",
    });
    const tries = await Promise.all(
      Array.from({ length: FUNDING_MAX + 5 }, (_, n) => refusalOf(addFunding(id, reference({ funder_name: `Funder ${n}` }), 1))),
    );
    expect(tries.filter((t) => t === "not refused")).toHaveLength(FUNDING_MAX);
    expect(tries.find((t) => t !== "not refused")).toMatchObject({ key: `validation.fundingFull|max=${FUNDING_MAX}` });
    expect(await fundingOf(id)).toHaveLength(FUNDING_MAX);
  });

  it("is named, listed and decided through the API, by the owner and the funder alone", async () => {
    const owner = await newMember("API Funded");
    const id = await newItem(owner);
    const body = (value: unknown) => ({ body: JSON.stringify(value), type: "application/json" });
    const ownerToken = await createSession(owner, Date.now());
    const stranger = await createSession(await newMember("API Stranger"), Date.now());
    const named = { funder_name: "Swiss National Science Foundation", funder_id: "10.13039/501100001711", award_number: "200021" };
    expect((await call(stranger, "POST", `/contents/${id}/funding`, body(named))).status).toBe(404);
    expect((await call(ownerToken, "POST", `/contents/${id}/funding`, body({ ...named, funder_id: "SNSF" }))).status).toBe(400);
    expect((await call(ownerToken, "POST", `/contents/${id}/funding`, body(named))).status).toBe(201);
    const listed = (await json(await call(stranger, "GET", `/contents/${id}/funding`))).data?.funding as Record<string, unknown>[];
    expect(listed).toMatchObject([
      { funder_id: "10.13039/501100001711", funder_id_type: "Crossref Funder ID", award_number: "200021", state: "named" },
    ]);
    // Nobody is that funder on the platform: nobody decides it.
    expect((await call(stranger, "PUT", `/funding/${listed[0]?.id}`, body({ state: "declined" }))).status).toBe(404);
    // The owner's data export holds it, with DataCite's names.
    const exported = JSON.parse(await new Response(exportData(owner, Date.now(), "https://app.test")).text()) as { funding: unknown[] };
    expect(exported.funding).toMatchObject([{ content_id: id, funder_name: "Swiss National Science Foundation", award_number: "200021" }]);
    expect((await call(ownerToken, "DELETE", `/contents/${id}/funding/${listed[0]?.id}`)).status).toBe(200);
    expect(await fundingOf(id)).toEqual([]);
  });

  it("is in the item's citations where the format has a place for it: a CSL note and custom fields, BibTeX's funding", async () => {
    const owner = await newMember("Cited Funded");
    const id = await newItem(owner, { title: "Cited and funded" });
    const token = await createSession(owner, Date.now());
    const body = (value: unknown) => ({ body: JSON.stringify(value), type: "application/json" });
    await call(
      token,
      "POST",
      `/contents/${id}/funding`,
      body({ funder_name: "U.S. National Science Foundation", funder_id: "ror.org/021nxhr62", award_number: "2040" }),
    );
    await call(token, "POST", `/contents/${id}/funding`, body({ funder_name: "A small trust" }));
    const cited = async (format: string) =>
      String((await json(await call(token, "GET", `/contents/${id}/citation?format=${format}`))).data?.text);
    const [csl] = JSON.parse(await cited("csl-json")) as Record<string, unknown>[];
    expect(csl?.note).toBe("Funding: U.S. National Science Foundation (2040); A small trust");
    expect(csl?.custom).toEqual({
      funding: [
        {
          funderName: "U.S. National Science Foundation",
          funderIdentifier: "https://ror.org/021nxhr62",
          funderIdentifierType: "ROR",
          awardNumber: "2040",
        },
        { funderName: "A small trust" },
      ],
    });
    const library = parseBibtex(await cited("bibtex"));
    expect(library.errors).toEqual([]);
    expect(library.entries[0]?.fields.funding).toBe("U.S. National Science Foundation (2040); A small trust");
    expect(await cited("apa")).not.toContain("Funding");
  });
});
