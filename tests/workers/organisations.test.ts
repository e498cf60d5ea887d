import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { createSession } from "~/.server/accounts/sessions";
import { linkOrganisation, organisationOf, unlinkOrganisation } from "~/.server/members/organisation";
import { memberPage } from "~/.server/members/profile";
import { findOrganisations } from "~/.server/members/ror";
import { ROR_QUERY_MAX } from "~/lib/limits";
import { HUGE_RECORD } from "../../scripts/fake-ror.mjs";
import { apiCall as call, apiJson as json } from "./api-call";
import { newMember, refusalOf } from "./helpers";

// Organisations by ROR (issue 52) through the registry's stand-in on loopback, which the worker
// reaches over the network as it would reach the registry: search in the member's language, a
// link checked with the registry, one that is no longer active refused with what it became, and
// a registry that is slow or failing said so.

describe("a member's organisation by ROR", () => {
  it("is found by its name in the member's language, and linked beside the name as typed", async () => {
    const found = await findOrganisations("科学技術振興機構", "ja");
    expect(found.map((org) => [org.id, org.name, org.label, org.acronym, org.country])).toEqual([
      ["https://ror.org/00097mb19", "Japan Science and Technology Agency", "科学技術振興機構", "JST", "Japan"],
    ]);
    const fund = await newMember("Science Fund", 2, "JST (typed)");
    await linkOrganisation(fund, "https://ror.org/00097mb19", "en", Date.now());
    expect(await organisationOf(fund)).toEqual({
      typed: "JST (typed)",
      ror: "https://ror.org/00097mb19",
      rorName: "Japan Science and Technology Agency",
    });
    expect((await memberPage(fund, fund))?.member).toMatchObject({ organisation_ror: "https://ror.org/00097mb19" });
    await unlinkOrganisation(fund);
    expect((await organisationOf(fund)).ror).toBeNull();
  });

  it("refuses what the registry does not hold, or holds as no longer active, naming what it became", async () => {
    const member = await newMember("Careful Linker");
    expect(await refusalOf(linkOrganisation(member, "https://ror.org/01zjanb50", "en", Date.now()))).toEqual({
      key: "ror.became|name=Japan International Science and Technology Exchange Center",
      field: "ror_id",
      status: 400,
    });
    expect(await refusalOf(linkOrganisation(member, "https://ror.org/0abcdef12", "en", Date.now()))).toMatchObject({ key: "ror.notFound" });
    expect(await refusalOf(linkOrganisation(member, "not an id", "en", Date.now()))).toMatchObject({ key: "ror.notFound" });
    const row = await env.DB.prepare("SELECT organisation_ror FROM users WHERE id = ?").bind(member).first("organisation_ror");
    expect(row).toBeNull();
  });

  it("says when the registry fails or is too slow", async () => {
    expect(await refusalOf(findOrganisations("stand-in.fail", "en"))).toMatchObject({ key: "ror.down", status: 502 });
    expect(await refusalOf(findOrganisations("stand-in.slow", "en"))).toMatchObject({ key: "ror.slow", status: 504 });
    // An answer larger than ROR_ANSWER_MAX_BYTES is not read whole, and a record larger than ROR_RECORD_MAX_BYTES not kept.
    expect(await refusalOf(findOrganisations("stand-in.huge", "en"))).toMatchObject({ key: "ror.down", status: 502 });
    const member = await newMember("Huge Record Linker");
    expect(await refusalOf(linkOrganisation(member, `https://ror.org/${HUGE_RECORD}`, "en", 1))).toMatchObject({ key: "ror.down" });
    expect(
      await env.DB.prepare("SELECT count(*) AS n FROM ror_records WHERE ror_id = ?").bind(`https://ror.org/${HUGE_RECORD}`).first("n"),
    ).toBe(0);
  });

  it("is searched and linked through the API, with the registry's refusals in the member's words", async () => {
    const token = await createSession(await newMember("API Linker"), Date.now());
    const found = await json(await call(token, "GET", "/organisations?query=NSFC"));
    expect((found.data?.organisations as { id: string; acronym: string }[] | undefined)?.map((o) => [o.id, o.acronym])).toEqual([
      ["https://ror.org/01h0zpd94", "NSFC"],
    ]);
    // A query longer than ROR_QUERY_MAX is refused before the registry is asked.
    expect((await call(token, "GET", `/organisations?query=${"a".repeat(ROR_QUERY_MAX + 1)}`)).status).toBe(400);
    expect((await call(token, "GET", `/organisations?query=${"a".repeat(ROR_QUERY_MAX)}`)).status).toBe(200);
    const put = (ror_id: string | null) =>
      call(token, "PUT", "/settings/organisation", { body: JSON.stringify({ ror_id }), type: "application/json" });
    const merged = await put("https://ror.org/040f08y74");
    expect([merged.status, ((await merged.json()) as { message: string }).message]).toEqual([
      400,
      "That organisation is no longer active: it became City St George's, University of London. Pick that one instead.",
    ]);
    expect((await json(await put("https://ror.org/047ybhc09"))).data).toMatchObject({
      organisation_ror: "https://ror.org/047ybhc09",
      organisation_ror_name: "City St George's, University of London",
    });
    expect((await json(await put(null))).data).toMatchObject({ organisation_ror: null });
  });
});
