import { z } from "zod";
import { linkOrganisation, organisationOf, unlinkOrganisation } from "~/.server/members/organisation";
import { findOrganisations } from "~/.server/members/ror";
import { ROR_QUERY_MAX } from "~/lib/limits";
import { forMember, REFUSAL } from "./define";
import { ok } from "./envelope";

// Organisations by ROR (decision 0052): the registry searched, and the member's own link, over the
// services the settings page uses.

const organisation = z.object({
  id: z.string().describe("its ROR id, https://ror.org/…"),
  name: z.string().describe("its name as the registry shows it"),
  label: z.string().nullable().describe("its name in your language, when the registry has one that differs"),
  acronym: z.string().nullable(),
  country: z.string().nullable(),
  status: z.enum(["active", "inactive", "withdrawn"]),
  successors: z.array(z.object({ id: z.string(), label: z.string() })).describe("what it became, when it is no longer active"),
});
const linked = z.object({
  organisation: z.string().nullable().describe("the name as you typed it"),
  organisation_ror: z.string().nullable(),
  organisation_ror_name: z.string().nullable(),
});

const linkedOf = async (userId: number) => {
  const found = await organisationOf(userId);
  return { organisation: found.typed, organisation_ror: found.ror, organisation_ror_name: found.rorName };
};

export const organisationRoutes = [
  forMember({
    method: "GET",
    path: "/organisations",
    summary: "Search the Research Organization Registry by name or acronym, in any of its languages (its first 20 answers)",
    query: z.object({ query: z.string().trim().min(1).max(ROR_QUERY_MAX) }),
    answers: { 200: z.object({ organisations: z.array(organisation) }), 502: REFUSAL, 504: REFUSAL },
    handle: async ({ ctx, query }) => ok({ organisations: await findOrganisations(query.query, ctx.language) }),
  }),
  forMember({
    method: "GET",
    path: "/settings/organisation",
    summary: "Your organisation (or affiliation): the name as typed and the ROR record linked",
    answers: { 200: linked },
    handle: async ({ member }) => ok(await linkedOf(member.user.id)),
  }),
  forMember({
    method: "PUT",
    path: "/settings/organisation",
    summary:
      "Link your organisation to its ROR record (checked with the registry; one no longer active is refused, naming what it became), or unlink it (null)",
    body: z.object({ ror_id: z.string().max(100).nullable() }),
    answers: { 200: linked, 400: REFUSAL, 502: REFUSAL, 504: REFUSAL },
    handle: async ({ ctx, member, body }) => {
      if (body.ror_id === null) await unlinkOrganisation(member.user.id);
      else await linkOrganisation(member.user.id, body.ror_id, ctx.language, Date.now());
      return ok(await linkedOf(member.user.id));
    },
  }),
];
