import type { z } from "zod";
import type { SessionUser } from "~/.server/accounts/sessions";
import type { ApiContext } from "./context";

// One declared API: every call is an entry saying its method, path, whether it needs a member and
// the zod schema of its JSON body; the router (router.ts) authenticates once, reads and checks the
// body once, and turns domain errors into answers in one table. Handlers get all of it checked.

export type Method = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";

/** The member behind the Authorization header, and the token (logout ends it). */
export interface Member {
  user: SessionUser;
  token: string;
}

export interface Call<Body, Who, Query = undefined> {
  ctx: ApiContext;
  member: Who;
  body: Body;
  query: Query;
  /** The path's captured segments, in order. */
  params: string[];
}

export interface ApiRoute {
  method: Method;
  /** The path as the API document writes it, below /api: "/contents/{id}/comments". */
  path: string;
  /** The same path as a pattern; its groups are the parameters, in order. */
  pattern: RegExp;
  /** Whether a member must be signed in (else 4010). */
  needsMember: boolean;
  /** The JSON body's schema; none means the handler reads the body itself (multipart, bytes) or there is none. */
  body?: z.ZodType;
  /** The query string's schema (each parameter one property); the document lists them from it. */
  query?: z.ZodType;
  handle: (call: Call<never, Member | null, never>) => Promise<Response> | Response;
}

interface Spec<Body, Who, Query> {
  method: Method;
  path: string;
  body?: z.ZodType<Body>;
  query?: z.ZodType<Query>;
  handle: (call: Call<Body, Who, Query>) => Promise<Response> | Response;
}

// Parameters are numbers, except an upload's id (the UUID its start answered).
const parameter = (path: string, name: string) => (path.startsWith("/uploads/") && name === "id" ? "[\\w-]+" : "\\d+");
const patternOf = (path: string) =>
  new RegExp(`^${path.replace(/\./g, "\\.").replace(/\{(\w+)\}/g, (_, name: string) => `(${parameter(path, name)})`)}$`);

/** A call for signed-in members. */
export const forMember = <Body = undefined, Query = undefined>(spec: Spec<Body, Member, Query>): ApiRoute =>
  ({ ...spec, pattern: patternOf(spec.path), needsMember: true }) as ApiRoute;

/** A call anyone may make (sign-up, login, codes, the document). */
export const forAnyone = <Body = undefined, Query = undefined>(spec: Spec<Body, null, Query>): ApiRoute =>
  ({ ...spec, pattern: patternOf(spec.path), needsMember: false }) as ApiRoute;
