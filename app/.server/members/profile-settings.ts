import { env } from "~/.server/bindings";
import { type Read, readOne } from "~/.server/reads";
import { Refused } from "~/.server/refused";
import { type ProfileInput, profileSchema } from "~/lib/schemas/profile";
import { countryInEveryLanguage, isCountry } from "./countries";

// The settings' profile: one row per member once saved; the nick name stays on the account.

export interface ProfileRow {
  sex: ProfileInput["sex"];
  birthday: string;
  address: string;
  first_name: string;
  middle_name: string;
  family_name: string;
  country: string;
  nationality: string;
  academic: string;
  research: string;
  website: string;
  phone: string;
  purpose: string;
  abbreviation: string | null;
  industry: string | null;
  organisation_phone: string | null;
  description: string | null;
  legal: string | null;
  organisation_email: string | null;
  public: 0 | 1;
  updated_at: number;
  orcid: string | null;
}

/** What other members may see of a profile the member made public. */
export interface PublicProfile {
  first_name: string;
  middle_name: string;
  family_name: string;
  academic: string;
  research: string;
  country: string;
}

const COLUMNS =
  "sex, birthday, address, first_name, middle_name, family_name, country, nationality, academic, research, website, phone, purpose, abbreviation, industry, organisation_phone, description, legal, organisation_email, public, updated_at, orcid";

export const profileRead = (userId: number): Read<ProfileRow | null> => ({
  statements: [env.DB.prepare(`SELECT ${COLUMNS} FROM profiles WHERE user_id = ?`).bind(userId)],
  decode: ([found]) => (found?.results[0] as ProfileRow | undefined) ?? null,
});

export const profileOf = (userId: number) => readOne(profileRead(userId));

/**
 * Saves the profile and the nick name together (one batch), checked against the account's kind (a
 * facilitator's has the organisation's fields too). The account type and kind are not among the
 * fields: nothing here can change them. A country that is not an ISO 3166 code is refused beside
 * its field.
 */
export async function saveProfile(userId: number, kind: "individual" | "facilitator", fields: unknown, now: number): Promise<void> {
  const checked = profileSchema(kind).safeParse(fields);
  if (!checked.success) throw Refused.fromIssues(checked.error.issues);
  const input: ProfileInput = checked.data;
  const db = env.DB;
  for (const field of ["country", "nationality"] as const)
    if (!isCountry(input[field])) throw new Refused("validation.countryInvalid", { field });
  const organisation = kind === "facilitator";
  const searchText = [
    input.firstName,
    input.middleName,
    input.familyName,
    input.academic,
    input.research,
    countryInEveryLanguage(input.country),
  ].join(" ");
  const values = [
    input.sex,
    input.birthday,
    input.address,
    input.firstName,
    input.middleName,
    input.familyName,
    input.country,
    input.nationality,
    input.academic,
    input.research,
    input.website,
    input.phone,
    input.purpose,
    ...(organisation
      ? [input.abbreviation, input.industry, input.organisationPhone, input.description, input.legal, input.organisationEmail]
      : [null, null, null, null, null, null]
    ).map((value) => value ?? null),
    input.public ? 1 : 0,
    now,
    input.orcid,
  ];
  const placeholders = values.map(() => "?").join(", ");
  const updates = COLUMNS.split(", ")
    .map((column) => `${column} = excluded.${column}`)
    .join(", ");
  await db.batch([
    db
      .prepare(
        `INSERT INTO profiles (user_id, ${COLUMNS}, search_text) VALUES (?, ${placeholders}, ?)
         ON CONFLICT (user_id) DO UPDATE SET ${updates}, search_text = excluded.search_text`,
      )
      .bind(userId, ...values, searchText),
    db.prepare("UPDATE users SET nick_name = ? WHERE id = ?").bind(input.nickName, userId),
  ]);
}
