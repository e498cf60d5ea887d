import { z } from "zod";
import { findContent } from "~/.server/content/content";
import { addFunding, decideFunding, fundingOf, removeFunding } from "~/.server/content/funding";
import { fundingSchema } from "~/lib/schemas/funding";
import { forMember, REFUSAL } from "./define";
import { notFound, ok } from "./envelope";

// Funding on items (decision 0052), with DataCite's names, over the services the pages use.

const funding = z.object({
  id: z.int(),
  funder_name: z.string().describe("DataCite funderName"),
  funder_id: z.string().nullable().describe("DataCite funderIdentifier: a ROR id (https://ror.org/…) or a Crossref Funder ID (10.13039/…)"),
  funder_id_type: z.enum(["ROR", "Crossref Funder ID"]).nullable().describe("DataCite funderIdentifierType"),
  award_number: z.string().describe("DataCite awardNumber; empty when not given"),
  award_uri: z.string().describe("DataCite awardURI; empty when not given"),
  award_title: z.string().describe("DataCite awardTitle; empty when not given"),
  funder_member: z
    .int()
    .nullable()
    .describe("the member who is the funder: named by the owner (`funder_member`), or whose organisation is (by its ROR id)"),
  state: z.enum(["named", "confirmed", "declined"]).describe("named by the author, confirmed or declined by that member"),
});

/** The owner's item, or null (someone else's, or none). */
async function ownItem(id: string | undefined, userId: number) {
  const item = await findContent(Number(id), userId);
  return item?.owner_id === userId ? item : null;
}

export const fundingRoutes = [
  forMember({
    method: "GET",
    path: "/contents/{id}/funding",
    summary: "Who funded the item (a funder's decline is shown to the owner only)",
    answers: { 200: z.object({ funding: z.array(funding) }), 404: REFUSAL },
    handle: async ({ ctx, member, params: [id] }) => {
      const item = await findContent(Number(id), member.user.id);
      if (!item) return notFound(ctx.language, "item");
      const all = await fundingOf(item.id);
      return ok({ funding: item.owner_id === member.user.id ? all : all.filter((f) => f.state !== "declined") });
    },
  }),
  forMember({
    method: "POST",
    path: "/contents/{id}/funding",
    summary:
      "Name a funder of your item: a ROR id is checked with the registry, and names the member who linked it; `funder_member` names a member as the funder (refused when they cannot be reached: gone, or a block between you). At most 20 an item; the same funder and award again stores nothing new (200)",
    body: fundingSchema,
    answers: { 201: z.null(), 200: z.null(), 400: REFUSAL, 404: REFUSAL, 502: REFUSAL, 504: REFUSAL },
    handle: async ({ ctx, member, body, params: [id] }) => {
      const item = await ownItem(id, member.user.id);
      if (!item) return notFound(ctx.language, "item");
      const added = await addFunding(item.id, body, ctx.now);
      return ok(null, "ok", { status: added === "stored" ? 201 : 200 });
    },
  }),
  forMember({
    method: "DELETE",
    path: "/contents/{id}/funding/{funding_id}",
    summary: "Remove a funder from your item",
    answers: { 200: z.null(), 404: REFUSAL },
    handle: async ({ ctx, member, params: [id, fundingId] }) => {
      const item = await ownItem(id, member.user.id);
      if (!item) return notFound(ctx.language, "item");
      await removeFunding(item.id, Number(fundingId));
      return ok(null);
    },
  }),
  forMember({
    method: "PUT",
    path: "/funding/{id}",
    summary: "As the funder a work names, confirm it or decline it",
    body: z.object({ state: z.enum(["confirmed", "declined"]) }),
    answers: { 200: z.null(), 404: REFUSAL },
    handle: async ({ ctx, member, body, params: [id] }) =>
      (await decideFunding(member.user.id, Number(id), body.state)) ? ok(null) : notFound(ctx.language, "item"),
  }),
];
