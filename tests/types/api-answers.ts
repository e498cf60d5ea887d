import { z } from "zod";
import { forMember, REFUSAL } from "~/api/define";
import { notFound, ok } from "~/api/envelope";

// The type check proves what a call's handler may answer (issue 31): `npm run typecheck` fails if
// any @ts-expect-error below meets no error, so loosening define.ts's types fails the build. (A field
// the schema does not list is the contract test's to catch: the document's objects are closed.)

const item = z.object({ id: z.int(), title: z.string() });
const declared = { 200: item, 404: REFUSAL } as const;

export const fixtures = [
  // What it declares: the item, or the refusal.
  forMember({
    method: "GET",
    path: "/fixture",
    summary: "declared",
    answers: declared,
    handle: ({ ctx }) => (ctx.now > 0 ? ok({ id: 1, title: "Wells" }) : notFound(ctx.language, "item")),
  }),
  forMember({
    method: "GET",
    path: "/fixture",
    summary: "a field of the wrong type",
    answers: declared,
    // @ts-expect-error id is a number in the declared answer
    handle: () => ok({ id: "1", title: "Wells" }),
  }),
  forMember({
    method: "GET",
    path: "/fixture",
    summary: "a field missing",
    answers: declared,
    // @ts-expect-error title is declared
    handle: () => ok({ id: 1 }),
  }),
  forMember({
    method: "GET",
    path: "/fixture",
    summary: "a success where only refusals are declared",
    answers: { 404: REFUSAL },
    // @ts-expect-error no 2xx is declared
    handle: () => ok(null),
  }),
  forMember({
    method: "GET",
    path: "/fixture",
    summary: "a raw Response where JSON is declared",
    answers: declared,
    // @ts-expect-error only a call declaring bytes or an empty answer builds its own Response
    handle: () => new Response("{}"),
  }),
];
