import { env } from "~/.server/bindings";
import { type CheckedOrganisation, organisationById } from "~/.server/members/ror";
import { type Read, readOne } from "~/.server/reads";
import { issuesByField, Refused } from "~/.server/refused";
import { BLOCKED_BETWEEN, NOT_AVAILABLE } from "~/.server/social/block-rules";
import { FUNDING_MAX } from "~/lib/limits";
import { type FundingInput, fundingSchema } from "~/lib/schemas/funding";

// Funding on items (docs/decisions/0052), with DataCite's names. A funder named by a ROR id that a
// member linked is that member: the work is listed on their Space under "research we supported",
// named by the author until they confirm it, and not at all once they decline it.

export interface Funding {
  id: number;
  funder_name: string;
  funder_id: string | null;
  funder_id_type: "ROR" | "Crossref Funder ID" | null;
  award_number: string;
  award_uri: string;
  award_title: string;
  funder_member: number | null;
  state: "named" | "confirmed" | "declined";
}

/** The item's owner, in the insert below. */
const OWNER = "(SELECT owner_id FROM content WHERE id = ?1)";

/**
 * SQL: the fund account that speaks for the organisation a ROR id names, for a work of `owner`: a
 * facilitator whose linked record a reviewer confirmed (so no account takes a funder's research by
 * linking its id), no block between it and the owner; null unless exactly one is.
 */
const fundOf = (ror: string, owner: string) =>
  `(SELECT min(u.id) FROM users u WHERE u.organisation_ror = ${ror} AND u.organisation_ror_confirmed = u.organisation_ror
     AND u.kind = 'facilitator' AND u.deleted_at IS NULL AND u.id <> ${owner} AND NOT ${BLOCKED_BETWEEN("u.id", owner)} HAVING count(*) = 1)`;

/**
 * Gives the works naming an organisation by its ROR id, and no member yet, to its fund account (as
 * a reference added later finds it): when one links or has its record confirmed.
 */
export const claimFunding = (ror: string) =>
  env.DB.prepare(
    `UPDATE item_funding SET funder_member = ${fundOf("?1", "(SELECT owner_id FROM content WHERE id = item_funding.content_id)")}
     WHERE funder_id = ?1 AND funder_member IS NULL`,
  ).bind(ror);

const COLUMNS = "id, funder_name, funder_id, funder_id_type, award_number, award_uri, award_title, funder_member, state";

/** The item's funding references, in the order they were added. */
export function fundingRead(itemId: number): Read<Funding[]> {
  return {
    statements: [env.DB.prepare(`SELECT ${COLUMNS} FROM item_funding WHERE content_id = ? ORDER BY id`).bind(itemId)],
    decode: ([found]) => (found?.results ?? []) as Funding[],
  };
}

export const fundingOf = (itemId: number) => readOne(fundingRead(itemId));

/** Several items' funding references, but for funders' declines, by item (open records and harvests). */
export async function fundingOfItems(ids: number[]): Promise<Map<number, Funding[]>> {
  const { results } = await env.DB.prepare(
    `SELECT content_id, ${COLUMNS} FROM item_funding WHERE state != 'declined' AND content_id IN (SELECT value FROM json_each(?)) ORDER BY id`,
  )
    .bind(JSON.stringify(ids))
    .all<Funding & { content_id: number }>();
  const byItem = new Map<number, Funding[]>();
  for (const { content_id, ...funding } of results) byItem.set(content_id, [...(byItem.get(content_id) ?? []), funding]);
  return byItem;
}

/** A funder named by a ROR id, checked with the registry (refused beside the field when it holds none); undefined for any other. */
export async function checkedFunder(funding: FundingInput): Promise<CheckedOrganisation | undefined> {
  const funder = funding.funder_id;
  if (funder?.type !== "ROR") return undefined;
  const found = await organisationById(funder.id, "en");
  if (!found) throw new Refused("ror.notFound", { field: "funder_id" });
  return found;
}

/**
 * The funding reference an upload carries, if its fields name one (decision 0052): read as the
 * funding page reads it, its problems beside its fields.
 */
export function fundingSent(fields: Record<string, string | undefined>, fieldErrors: Record<string, string[]>): FundingInput | null {
  const sent = { funder_name: fields.funder_name ?? "", funder_id: fields.funder_id ?? "", award_number: fields.award_number ?? "" };
  if (!Object.values(sent).some((value) => value.trim())) return null;
  const parsed = fundingSchema.safeParse(sent);
  Object.assign(fieldErrors, issuesByField(parsed.error?.issues ?? []));
  return parsed.data ?? null;
}

/**
 * Adds a funding reference to the owner's item: a ROR id is checked with the registry first (one it
 * does not hold is refused; `checked` when that was done already), and names the member who linked
 * it. The same reference again (a form posted twice) stores nothing more. At most FUNDING_MAX an
 * item, held in the insert itself so two at once cannot pass it.
 */
export async function addFunding(
  itemId: number,
  funding: FundingInput,
  now: number,
  checked?: CheckedOrganisation,
): Promise<"stored" | "repeat"> {
  const funder = funding.funder_id;
  checked ??= await checkedFunder(funding);
  // A member named as funder must be one the owner may reach: not themselves, not gone, no block between them.
  const named = `EXISTS (SELECT 1 FROM users m WHERE m.id = ?10 AND m.deleted_at IS NULL AND m.id <> ${OWNER} AND NOT ${BLOCKED_BETWEEN("m.id", OWNER)})`;
  const insert = env.DB.prepare(
    `INSERT INTO item_funding (content_id, funder_name, funder_id, funder_id_type, award_number, award_uri, award_title, funder_member, created_at)
     SELECT ?1, ?2, ?3, ?4, ?5, ?6, ?7,
       coalesce(?10, CASE WHEN ?4 = 'ROR' THEN ${fundOf("?3", OWNER)} END), ?8
     WHERE (SELECT count(*) FROM item_funding WHERE content_id = ?1) < ?9 AND (?10 IS NULL OR ${named})
     ON CONFLICT DO NOTHING RETURNING id`,
  ).bind(
    itemId,
    funding.funder_name,
    funder?.id ?? null,
    funder?.type ?? null,
    funding.award_number,
    funding.award_uri,
    funding.award_title,
    now,
    FUNDING_MAX,
    funding.funder_member ?? null,
  );
  // The funder's record is kept with a reference that was stored: research is found by every name the funder has.
  const kept = { sql: "EXISTS (SELECT 1 FROM item_funding WHERE content_id = ?6 AND funder_id = ?1)", binds: [itemId] };
  const [added] = checked ? await env.DB.batch([insert, checked.remember(now, kept)]) : [await insert.run()];
  if (added?.results.length) return "stored";
  const same = await env.DB.prepare(
    "SELECT 1 FROM item_funding WHERE content_id = ?1 AND funder_name = ?2 AND coalesce(funder_id, '') = coalesce(?3, '') AND award_number = ?4",
  )
    .bind(itemId, funding.funder_name, funder?.id ?? null, funding.award_number)
    .first();
  if (same) return "repeat";
  const full = await env.DB.prepare("SELECT count(*) >= ? AS full FROM item_funding WHERE content_id = ?")
    .bind(FUNDING_MAX, itemId)
    .first("full");
  if (!full) throw new Refused(NOT_AVAILABLE);
  throw new Refused(`validation.fundingFull|max=${FUNDING_MAX}`);
}

/** Removes one of the item's funding references. */
export async function removeFunding(itemId: number, fundingId: number): Promise<void> {
  await env.DB.prepare("DELETE FROM item_funding WHERE id = ? AND content_id = ?").bind(fundingId, itemId).run();
}

/** The funder named confirms or declines a reference naming them; anyone else changes nothing (false). */
export async function decideFunding(memberId: number, fundingId: number, state: "confirmed" | "declined"): Promise<boolean> {
  const changed = await env.DB.prepare("UPDATE item_funding SET state = ? WHERE id = ? AND funder_member = ?")
    .bind(state, fundingId, memberId)
    .run();
  return Boolean(changed.meta.changes);
}

/** A work a member is named as funding, as their Space lists it. */
export interface SupportedWork {
  funding_id: number;
  content_id: number;
  title: string;
  owner_name: string;
  award_number: string;
  state: "named" | "confirmed";
}

/** The works naming the member as funder that the viewer may see, confirmed and named ones, newest first. */
export function supportedRead(memberId: number, viewerId: number): Read<SupportedWork[]> {
  return {
    statements: [
      env.DB.prepare(
        `SELECT f.id AS funding_id, c.id AS content_id, c.title, u.nick_name AS owner_name, f.award_number, f.state
         FROM item_funding f JOIN content c ON c.id = f.content_id JOIN users u ON u.id = c.owner_id
         WHERE f.funder_member = ?1 AND f.state != 'declined' AND c.hidden_at IS NULL AND (c.publicize = 1 OR c.owner_id = ?2)
         ORDER BY c.created_at DESC, f.id DESC LIMIT 50`,
      ).bind(memberId, viewerId),
    ],
    decode: ([found]) => (found?.results ?? []) as SupportedWork[],
  };
}
