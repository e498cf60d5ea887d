import { Validator } from "@cfworker/json-schema";
import { describe, expect, it } from "vitest";
import { ROR_RECORD_MAX_BYTES } from "~/lib/limits";
import { HUGE_RECORD, rorAnswer, rorRecords } from "../../scripts/fake-ror.mjs";
import schema from "../fixtures/ror/ror_schema_v2.json";

// The stand-in for the Research Organization Registry (issue 52): every record it answers with is
// valid against ROR's published v2 schema, and it matches as the registry does on a slice of its
// data: labels in Japanese and Chinese, acronyms, and organisations merged or withdrawn.

type Org = { id: string; status: string; names: { value: string }[] };
const validator = new Validator(schema as object, "7", false);
const ask = (query: string) => rorAnswer(new URL(`http://stand-in/ror/v2/organizations?${query}`)) ?? { status: 0, body: null };
const ids = (items: Org[]) => items.map((org) => org.id.slice(-9));

describe("the registry's stand-in", () => {
  it("holds only records valid against ROR's v2 schema, and the schema refuses a broken one", () => {
    for (const org of rorRecords() as Org[]) expect(validator.validate(org).errors, org.id).toEqual([]);
    // The oversized record too: only its size is out of the ordinary.
    const huge = rorAnswer(new URL(`http://127.0.0.1/ror/v2/organizations/${HUGE_RECORD}`))?.body;
    expect(validator.validate(huge).errors).toEqual([]);
    expect(JSON.stringify(huge).length).toBeGreaterThan(ROR_RECORD_MAX_BYTES);
    const broken = { ...(rorRecords() as Org[])[0], status: "closed" };
    expect(validator.validate(broken).valid).toBe(false);
  });

  it("finds organisations by their names in any language and by acronym, active ones unless asked", () => {
    const search = (query: string, more = "") => ids((ask(`query=${encodeURIComponent(query)}${more}`).body as { items: Org[] }).items);
    expect(search("京都大学")).toEqual(["02kpeqv85"]);
    expect(search("清华大学")).toEqual(["03cve4549"]);
    expect(search("NSFC")).toEqual(["01h0zpd94"]);
    expect(search("University of London")).toEqual(["047ybhc09"]);
    expect(search("University of London", "&all_status").sort()).toEqual(["040f08y74", "04489at23", "047ybhc09"]);
    // A ROR id is that record, whatever its status.
    expect(search("https://ror.org/01zjanb50")).toEqual(["01zjanb50"]);
    const answer = ask("query=science").body as { number_of_results: number; items: Org[]; meta: { statuses: unknown[] } };
    expect(answer.number_of_results).toBe(answer.items.length);
    for (const org of answer.items) expect(validator.validate(org).valid).toBe(true);
  });

  it("chooses one organisation for an affiliation only when it is sure", () => {
    const affiliation = (text: string, more = "") =>
      (
        ask(`affiliation=${encodeURIComponent(text)}${more}`).body as {
          items: { chosen: boolean; matching_type: string; organization: Org }[];
        }
      ).items;
    const kyoto = affiliation("Kyoto University");
    expect(kyoto.filter((item) => item.chosen).map((item) => [item.organization.id.slice(-9), item.matching_type])).toEqual([
      ["02kpeqv85", "EXACT"],
    ]);
    expect(affiliation("JST").find((item) => item.chosen)?.organization.id).toBe("https://ror.org/00097mb19");
    expect(affiliation("Graduate School of Medicine, 京都大学, Kyoto").find((item) => item.chosen)?.matching_type).toBe("PHRASE");
    // Two organisations named alike: none is chosen.
    expect(affiliation("Japan International Science and Technology Exchange Center", "&all_status").some((item) => item.chosen)).toBe(
      false,
    );
  });

  it("answers one record by id, says so for none, and fails as asked", () => {
    expect(ask("query=x").status).toBe(200);
    const withdrawn = rorAnswer(new URL("http://stand-in/ror/v2/organizations/01zjanb50"));
    expect((withdrawn?.body as Org | undefined)?.status).toBe("withdrawn");
    expect(rorAnswer(new URL("http://stand-in/ror/v2/organizations/0abcdef12"))?.status).toBe(404);
    expect(ask("query=stand-in.fail").status).toBe(503);
    expect(rorAnswer(new URL("http://stand-in/doi/10.1/x"))).toBeNull();
  });
});
