import { z } from "zod";
import { orcidWorks, unlinkOrcid } from "~/.server/accounts/orcid";
import { forMember, REFUSAL } from "./define";
import { ok } from "./envelope";

// The member's ORCID link (decision 0041). Linking needs a browser (signing in to ORCID), so it
// happens on Settings; a program reads the iD on auth/info, lists the works, and may unlink.

const work = z.object({
  put_code: z.int().describe("ORCID's id of the work on the record"),
  title: z.string(),
  year: z.int().nullable(),
  doi: z.string().nullable().describe("bare, in lower case; POST it to /contents/prefill to fill an upload's fields"),
});

export const orcidRoutes = [
  forMember({
    method: "GET",
    path: "/orcid/works",
    summary: "The works on the member's linked ORCID record (title, year, DOI), read from ORCID's public API",
    answers: { 200: z.object({ works: z.array(work) }), 404: REFUSAL, 502: REFUSAL },
    handle: async ({ member }) => {
      const works = await orcidWorks(member.user.orcid);
      return ok({ works: works.map((w) => ({ put_code: w.putCode, title: w.title, year: w.year, doi: w.doi })) });
    },
  }),
  forMember({
    method: "DELETE",
    path: "/orcid",
    summary: "Unlink the member's ORCID iD (refused with 409 when ORCID is the account's only way in)",
    answers: { 200: z.null(), 409: REFUSAL },
    handle: async ({ member }) => {
      await unlinkOrcid(member.user.id);
      return ok(null);
    },
  }),
];
