import { env } from "cloudflare:workers";
import { Validator } from "@cfworker/json-schema";
import { describe, expect, it } from "vitest";
import { addFunding, decideFunding, fundingOf } from "~/.server/content/funding";
import { linkOrganisation } from "~/.server/members/organisation";
import { organisationName, organisationsNamed } from "~/.server/search/organisations";
import { type SearchQuery, searchPage, searchQuerySchema } from "~/.server/search/search";
import { unmarked } from "~/lib/highlight";
import { FUNDING_MAX } from "~/lib/limits";
import { fundingSchema } from "~/lib/schemas/funding";
import schema from "../fixtures/ror/ror_schema_v2.json";
import { newItem, newMember, refusalOf } from "./helpers";

// Organisations by ROR, searched (issue 52): the registry's records kept when members name them,
// valid against ROR's v2 schema; research found by its funder and members by their organisation,
// by its identifier or by any of its names in any language.

const DFG = "https://ror.org/018mejw64";
const KYOTO = "https://ror.org/02kpeqv85";
const TOHOKU = "https://ror.org/01dq60k83";

const search = (params: Record<string, string>) => searchPage(searchQuerySchema.parse(params) as SearchQuery, 0, Date.now());
/** The titles or names found, their matches unmarked. */
const titles = async (params: Record<string, string>) =>
  (await search(params)).items.map((hit) => unmarked("title" in hit ? hit.title : hit.nick_name));
const record = (id: string) =>
  env.DB.prepare("SELECT record, name, names FROM ror_records WHERE ror_id = ?")
    .bind(id)
    .first<{ record: string; name: string; names: string }>();

describe("organisations by ROR, searched", () => {
  it("keeps the registry's record, valid against ROR's v2 schema, and none for a refused reference", async () => {
    const member = await newMember("Kyoto Researcher", 1, "Kyodai");
    await linkOrganisation(member, KYOTO, "en", Date.now());
    const kept = await record(KYOTO);
    expect(kept).toMatchObject({ name: "Kyoto University" });
    expect(kept?.names).toContain("京都大学");
    const validator = new Validator(schema as object, "7", false);
    expect(validator.validate(JSON.parse(kept?.record ?? "null")).errors).toEqual([]);
    // The schema holds a stored record to what ROR publishes: one missing its names fails.
    const { names: _, ...broken } = JSON.parse(kept?.record ?? "{}");
    expect(validator.validate(broken).valid).toBe(false);

    // A reference refused (the item is full) keeps no record of its funder.
    const owner = await newMember("Full Item Owner");
    const item = await newItem(owner);
    for (let n = 0; n < FUNDING_MAX; n++) await addFunding(item, fundingSchema.parse({ funder_name: `Funder ${n}` }), 1);
    const refused = addFunding(item, fundingSchema.parse({ funder_name: "Tohoku University", funder_id: TOHOKU }), 1);
    expect(await refusalOf(refused)).toMatchObject({ key: `validation.fundingFull|max=${FUNDING_MAX}` });
    expect(await record(TOHOKU)).toBeNull();
  });

  it("finds research by its funder, with or without words, and not once the funder declined", async () => {
    const fund = await newMember("German Research Fund", 2);
    await env.DB.prepare("UPDATE users SET kind = 'facilitator' WHERE id = ?").bind(fund).run();
    await linkOrganisation(fund, DFG, "en", Date.now());
    // As a reviewer confirms it with the fund's verification: the fund speaks for the organisation.
    await env.DB.prepare("UPDATE users SET organisation_ror_confirmed = organisation_ror WHERE id = ?").bind(fund).run();
    const researcher = await newMember("Funded By DFG");
    const word = `zq${crypto.randomUUID().slice(0, 6)}`;
    const [funded, declined, other] = [
      await newItem(researcher, { title: `Funded ${word}` }),
      await newItem(researcher, { title: `Declined ${word}` }),
      await newItem(researcher, { title: `Unfunded ${word}` }),
    ];
    for (const id of [funded, declined])
      await addFunding(id, fundingSchema.parse({ funder_name: "DFG", funder_id: "ror.org/018mejw64", award_number: "1" }), 1);
    const [wrong] = await fundingOf(declined);
    await decideFunding(fund, wrong?.id ?? 0, "declined");
    expect(other).toBeGreaterThan(0);

    expect(await titles({ q: word })).toHaveLength(3);
    expect(await titles({ q: word, funder: DFG })).toEqual([`Funded ${word}`]);
    // No words: the funder's research, newest first, whatever form its identifier is typed in.
    expect(await titles({ funder: "https://ror.org/018MEJW64" })).toContain(`Funded ${word}`);
    expect(await titles({ funder: DFG })).not.toContain(`Declined ${word}`);
    // A Crossref Funder ID names a funder too.
    const named = await newItem(researcher, { title: `Crossref ${word}` });
    await addFunding(named, fundingSchema.parse({ funder_name: "DFG", funder_id: "https://doi.org/10.13039/501100001659" }), 1);
    expect(await titles({ funder: "10.13039/501100001659" })).toEqual([`Crossref ${word}`]);
    // A funder known only from a private work keeps its name there: others see the identifier.
    const hidden = await newItem(researcher, { publicize: 0 });
    await addFunding(hidden, fundingSchema.parse({ funder_name: "Secret Fund", funder_id: "10.13039/100000099" }), 1);
    expect(await organisationName("10.13039/100000099", researcher)).toBe("Secret Fund");
    expect(await organisationName("10.13039/100000099", fund)).toBe("10.13039/100000099");
    expect(await organisationName(DFG, fund)).toBe("Deutsche Forschungsgemeinschaft");
    // A funder's name finds the funder itself, in the registry's words.
    expect((await organisationsNamed(["Deutsche Forschungsgemeinschaft"])).map((o) => o.id)).toEqual([DFG]);
  });

  it("finds members by any name of the organisation they linked, and lists its members", async () => {
    const member = await newMember(`Fellow ${crypto.randomUUID().slice(0, 6)}`, 1, "Lab typed by hand");
    await linkOrganisation(member, KYOTO, "ja", Date.now());
    const fellow = (await env.DB.prepare("SELECT nick_name FROM users WHERE id = ?").bind(member).first("nick_name")) as string;
    for (const q of ["京都大学", "Kyōto daigaku", "Kyoto University"])
      expect(await titles({ tab: "members", q }), q).toEqual(expect.arrayContaining([fellow]));
    // A short word (two characters, below the trigram index) is found too.
    expect(await titles({ tab: "members", q: "京都", org: KYOTO })).toEqual(expect.arrayContaining([fellow]));
    const listed = await titles({ tab: "members", org: KYOTO });
    expect(listed).toContain(fellow);
    // Unlinked, the member is not found by the organisation's names any more.
    await env.DB.prepare("UPDATE users SET organisation_ror = NULL WHERE id = ?").bind(member).run();
    expect(await titles({ tab: "members", q: "Kyōto daigaku" })).not.toEqual(expect.arrayContaining([fellow]));
  });
});
