import { afterDraining } from "~/.server/http/body";
import { Refused } from "~/.server/refused";
import { allowMemberCall } from "~/.server/security/rate-limit";
import { captionRoutes } from "./captions";
import { contentRoutes } from "./contents";
import { type ApiContext, authenticate } from "./context";
import { conversationRoutes } from "./conversations";
import { type ApiRoute, forAnyone } from "./define";
import { notAvailable, notFound, refusalAnswer } from "./envelope";
import { fundingRoutes } from "./funding";
import { meetingRoutes } from "./meetings";
import { memberRoutes } from "./members";
import { notificationRoutes } from "./notifications";
import { apiDocument } from "./openapi";
import { orcidRoutes } from "./orcid";
import { organisationRoutes } from "./organisations";
import { referencePage } from "./reference";
import { settingsRoutes } from "./settings";
import { socialRoutes } from "./social";
import { statsRoutes } from "./stats";
import { userRoutes } from "./users";
import { verificationRoutes } from "./verification";
import { versionRoutes } from "./versions";

export const API_BASE = "/api";

// Every call of the API (paths below /api are the spec's, section 7).
const ROUTES: ApiRoute[] = [
  ...userRoutes,
  ...contentRoutes,
  ...socialRoutes,
  ...statsRoutes,
  ...memberRoutes,
  ...conversationRoutes,
  ...settingsRoutes,
  ...meetingRoutes,
  ...notificationRoutes,
  ...verificationRoutes,
  ...orcidRoutes,
  ...versionRoutes,
  ...fundingRoutes,
  ...organisationRoutes,
  ...captionRoutes,
  forAnyone({
    method: "GET",
    path: "/openapi.json",
    summary: "This document",
    answers: { 200: { bytes: "OpenAPI 3.1", types: ["application/json"] } },
    handle: () => Response.json(document()),
  }),
  forAnyone({
    method: "GET",
    path: "/docs",
    summary: "This document, readable (Swagger UI)",
    answers: { 200: { bytes: "An HTML page", types: ["text/html"] } },
    handle: referencePage,
  }),
];

let generated: ReturnType<typeof apiDocument> | undefined;
/** /api/openapi.json, generated once per isolate from the route table. */
export const document = () => {
  generated ??= apiDocument(ROUTES);
  return generated;
};

/** The JSON API: find the call, authenticate once, check the body and query once, answer every `Refused` alike. */
export async function handleApi(ctx: ApiContext): Promise<Response> {
  const path = new URL(ctx.request.url).pathname.slice(API_BASE.length) || "/";
  const matches = ROUTES.filter((route) => route.pattern.test(path));
  if (matches.length === 0) return notFound(ctx.language, "call");
  const route = matches.find((candidate) => candidate.method === ctx.request.method);
  if (!route) {
    const response = refusalAnswer(ctx.language, new Refused("notify.requestFailed", { status: 405 }));
    response.headers.set("Allow", matches.map((candidate) => candidate.method).join(", "));
    return response;
  }
  // Refused before the body is read (a large upload among them): the body is drained first, so the
  // client reads the answer instead of a reset connection.
  const member = route.needsMember ? await authenticate(ctx) : null;
  if (member instanceof Response) return afterDraining(ctx.request, member);
  if (member && route.role && !member.user.roles.includes(route.role)) return afterDraining(ctx.request, notAvailable(ctx.language));
  // Per member, not per address: members share addresses, and a token is all a program has.
  if (member && !(await allowMemberCall(member.user.id))) {
    return afterDraining(ctx.request, refusalAnswer(ctx.language, new Refused("validation.rateLimited", { status: 429, retryAfter: 60 })));
  }
  let body: unknown;
  if (route.body) {
    // Bodies arrive bounded: the worker entry refuses past 256 KB before this runs (only upload parts stream).
    const json = await ctx.request.json().catch(() => undefined);
    if (json === undefined) return refusalAnswer(ctx.language, new Refused("validation.inputEmpty"));
    const parsed = route.body.safeParse(json);
    if (!parsed.success) return refusalAnswer(ctx.language, Refused.fromIssues(parsed.error.issues));
    body = parsed.data;
  }
  let query: unknown;
  if (route.query) {
    const parsed = route.query.safeParse(Object.fromEntries(new URL(ctx.request.url).searchParams));
    if (!parsed.success) return refusalAnswer(ctx.language, Refused.fromIssues(parsed.error.issues));
    query = parsed.data;
  }
  const params = route.pattern.exec(path)?.slice(1) ?? [];
  const response = await Promise.resolve(route.handle({ ctx, member, body: body as never, query: query as never, params })).catch(
    (error) => {
      if (error instanceof Refused) return refusalAnswer(ctx.language, error);
      throw error;
    },
  );
  if (!response.headers.has("Cache-Control")) response.headers.set("Cache-Control", "no-store");
  return response;
}
