import { env } from "~/.server/bindings";
import { claimFunding } from "~/.server/content/funding";
import { type Read, readOne } from "~/.server/reads";
import { Refused } from "~/.server/refused";
import { organisationById } from "./ror";

// A member's organisation by ROR (docs/decisions/0052): the id they picked, checked with the
// registry when picked, beside the name they typed.

export interface MemberOrganisation {
  /** The name as the member typed it (a facilitator's organisation), if any. */
  typed: string | null;
  ror: string | null;
  rorName: string | null;
}

export function organisationRead(userId: number): Read<MemberOrganisation> {
  return {
    statements: [env.DB.prepare("SELECT organisation, organisation_ror, organisation_ror_name FROM users WHERE id = ?").bind(userId)],
    decode: ([found]) => {
      const row = found?.results[0] as
        | { organisation: string | null; organisation_ror: string | null; organisation_ror_name: string | null }
        | undefined;
      return { typed: row?.organisation ?? null, ror: row?.organisation_ror ?? null, rorName: row?.organisation_ror_name ?? null };
    },
  };
}

export const organisationOf = (userId: number) => readOne(organisationRead(userId));

/**
 * Links the member to the organisation the registry has under `id`: refused when it has none, and
 * when it is no longer active (merged or withdrawn), naming what it became.
 */
export async function linkOrganisation(userId: number, id: string, reader: string, now: number) {
  const found = await organisationById(id, reader);
  if (!found) throw new Refused("ror.notFound", { field: "ror_id" });
  if (found.status !== "active") {
    const successor = found.successors[0];
    throw new Refused(successor ? `ror.became|name=${successor.label}` : "ror.notActive", { field: "ror_id" });
  }
  // The record first: the member index reads its names when the link changes.
  await env.DB.batch([
    found.remember(now),
    releaseFunding(userId, found.id),
    env.DB.prepare("UPDATE users SET organisation_ror = ?, organisation_ror_name = ? WHERE id = ?").bind(found.id, found.name, userId),
    claimFunding(found.id),
  ]);
  const { remember: _, ...organisation } = found;
  return organisation;
}

/**
 * The works naming the member through their organisation's ROR id that they had not decided on are
 * nobody's to decide once they link another organisation (`next`) or none.
 */
const releaseFunding = (userId: number, next: string | null) =>
  env.DB.prepare(
    `UPDATE item_funding SET funder_member = NULL
     WHERE funder_member = ?1 AND state = 'named' AND funder_id = (SELECT organisation_ror FROM users WHERE id = ?1) AND funder_id IS NOT ?2`,
  ).bind(userId, next);

export async function unlinkOrganisation(userId: number) {
  await env.DB.batch([
    releaseFunding(userId, null),
    env.DB.prepare("UPDATE users SET organisation_ror = NULL, organisation_ror_name = NULL WHERE id = ?").bind(userId),
  ]);
}
