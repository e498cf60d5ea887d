import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { memberPage } from "~/.server/members/profile";
import { profileOf, saveProfile } from "~/.server/members/profile-settings";
import { searchMembers } from "~/.server/search/search";
import { type ProfileInput, profileSchema } from "~/lib/schemas/profile";
import { newMember, refusalOf, refusedKey } from "./helpers";

const PROFILE: ProfileInput = {
  nickName: "Saved Nick",
  sex: "unsaid",
  birthday: "1990-04-01",
  address: "1-1 Chiyoda, Tokyo",
  firstName: "Hanako",
  middleName: "Q",
  familyName: "Yamada",
  country: "JP",
  nationality: "JP",
  academic: "Hydrology",
  research: "Groundwater recharge in volcanic islands",
  website: "https://example.org",
  phone: "+81312345678",
  purpose: "Find collaborators",
  orcid: null,
  public: true,
};

const search = (q: string) =>
  searchMembers({ q, tab: "members", page: 1 } as Parameters<typeof searchMembers>[0]).then((hits) => hits.map((h) => h.id));

describe("profile settings", () => {
  it("take an optional ORCID iD, checked by its check digit, stored normalised and shown on the Space", async () => {
    const form = { ...PROFILE, public: "on", orcid: "https://orcid.org/0000000218250097" };
    const parsed = profileSchema("individual").parse(form);
    expect(parsed.orcid).toBe("0000-0002-1825-0097");
    expect(
      profileSchema("individual")
        .safeParse({ ...form, orcid: "0000-0002-1825-0098" })
        .error?.issues.map((i) => i.message),
    ).toEqual(["validation.orcidInvalid"]);
    expect(profileSchema("individual").parse({ ...form, orcid: "" }).orcid).toBeNull();
    const id = await newMember("Orcid");
    await saveProfile(id, "individual", parsed, 1);
    expect((await profileOf(id))?.orcid).toBe("0000-0002-1825-0097");
    // Shown with the public profile, and not while the profile is private (an ORCID record names the person).
    expect((await memberPage(id, id))?.member.orcid).toBe("0000-0002-1825-0097");
    await saveProfile(id, "individual", { ...parsed, public: false }, 2);
    expect((await memberPage(id, id))?.member.orcid).toBeNull();
  });

  it("saves every field and the nick name together, and reads them back", async () => {
    const id = await newMember("Before");
    expect(await refusedKey(saveProfile(id, "individual", PROFILE, 1000))).toBeNull();
    expect(await profileOf(id)).toMatchObject({
      first_name: "Hanako",
      country: "JP",
      public: 1,
      abbreviation: null,
      updated_at: 1000,
    });
    expect(await env.DB.prepare("SELECT nick_name FROM users WHERE id = ?").bind(id).first("nick_name")).toBe("Saved Nick");
    await saveProfile(id, "individual", { ...PROFILE, academic: "Geology" }, 2000);
    expect(await profileOf(id)).toMatchObject({ academic: "Geology", updated_at: 2000 });
  });

  it("refuses a country that is not in ISO 3166, changing nothing", async () => {
    const id = await newMember("Nowhere");
    expect(await refusalOf(saveProfile(id, "individual", { ...PROFILE, country: "XX" }, 1))).toMatchObject({ field: "country" });
    expect(await refusalOf(saveProfile(id, "individual", { ...PROFILE, nationality: "ZZ" }, 1))).toMatchObject({
      field: "nationality",
      key: "validation.countryInvalid",
    });
    expect(await profileOf(id)).toBeNull();
  });

  it("lets member search find a public profile by names, field, research or the country in any of the three languages, and a private one by none of them", async () => {
    const shown = await newMember("Shown Member");
    const kept = await newMember("Kept Member");
    await saveProfile(shown, "individual", { ...PROFILE, academic: "Paleoclimatology" }, 1);
    await saveProfile(kept, "individual", { ...PROFILE, academic: "Paleoclimatology", public: false }, 1);
    for (const q of ["Paleoclimatology", "Yamada", "volcanic", "Japan", "日本"]) {
      const found = await search(q);
      expect(found, q).toContain(shown);
      expect(found, q).not.toContain(kept);
    }
    // Making it private later takes it out of search again.
    await saveProfile(shown, "individual", { ...PROFILE, academic: "Paleoclimatology", public: false }, 2);
    expect(await search("Paleoclimatology")).not.toContain(shown);
  });

  it("checks the fields as the spec says: each required, a past birthday, an international phone, an http(s) website", () => {
    const errors = (input: Record<string, unknown>, kind: "individual" | "facilitator" = "individual") => {
      const result = profileSchema(kind).safeParse(input);
      return result.success ? {} : Object.fromEntries(result.error.issues.map((i) => [String(i.path[0]), i.message]));
    };
    expect(errors({ ...PROFILE, middleName: "  " })).toEqual({ middleName: "validation.fieldEmpty|field=fields.middleName" });
    expect(errors({ ...PROFILE, birthday: "2999-01-01" })).toEqual({ birthday: "validation.birthdayFuture" });
    expect(errors({ ...PROFILE, birthday: "1850-01-01" })).toEqual({ birthday: "validation.birthdayInvalid" });
    expect(errors({ ...PROFILE, phone: "03-1234-5678" })).toEqual({ phone: "validation.phoneFormat" });
    expect(errors({ ...PROFILE, website: "javascript:alert(1)" })).toEqual({ website: "validation.websiteFormat" });
    expect(errors({ ...PROFILE, website: "ftp://example.org" })).toEqual({ website: "validation.websiteFormat" });
    expect(errors({ ...PROFILE, phone: "+81 (3) 1234-5678" })).toEqual({});
    expect(Object.keys(errors(PROFILE, "facilitator")).sort()).toEqual(
      ["abbreviation", "description", "industry", "legal", "organisationEmail", "organisationPhone"].sort(),
    );
  });
});
