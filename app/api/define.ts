import type { z } from "zod";
import type { ApiContext, Member } from "./context";
import type { Ok, RefusalAnswer } from "./envelope";

// One declared API: every call is an entry saying its method, path, whether it needs a member, the
// zod schemas of its query and JSON body, and what it answers per status; the router (router.ts)
// authenticates once, reads and checks the input once, and answers a service's refusal (Refused) the
// same way for every call; the document (openapi.ts) is generated from the same entries, and the
// handler's answer is typed by them (Replied).

export type Method = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";

/** The member behind the Authorization header, and the token (logout ends it). */
export interface Call<Body, Who, Query = undefined> {
  ctx: ApiContext;
  member: Who;
  body: Body;
  query: Query;
  /** The path's captured segments, in order. */
  params: string[];
}

/** A refusal in the envelope ({code, message, errors?}). */
export const REFUSAL = "refusal";
/**
 * What a call answers with a status: the success envelope's `data` (a zod schema; z.null() for none),
 * a refusal, something outside the envelope (a file's bytes in one of `types`, this document), or nothing (304).
 */
export type Answer = z.ZodType | typeof REFUSAL | { bytes: string; types: string[] } | { empty: string };
type Answers = Record<number, Answer>;

type Success = 200 | 201 | 202;
/** The data a call's successes carry: the union of its declared 2xx schemas. */
type DataOf<A extends Answers> = { [K in keyof A]: K extends Success ? (A[K] extends z.ZodType ? z.output<A[K]> : never) : never }[keyof A];
/** A call that answers bytes or nothing (304) builds that Response itself. */
type RawOf<A extends Answers> = { [K in keyof A]: A[K] extends { bytes: string } | { empty: string } ? Response : never }[keyof A];
/**
 * What a handler may answer: `ok(data)` whose data fits a declared 2xx schema, a refusal, or (where
 * declared) bytes or nothing. A handler answering an undeclared shape fails the type check.
 */
export type Replied<A extends Answers> = Ok<DataOf<A>> | RefusalAnswer | RawOf<A>;

interface Declared<Body, Who, Query, A extends Answers> {
  method: Method;
  /** A role the member must hold (spec section 6); anyone else gets 403. */
  role?: "moderator" | "reviewer";
  /** The path as the API document writes it, below /api: "/contents/{id}/comments". */
  path: string;
  summary: string;
  description?: string;
  /** The JSON body's schema; none means the handler reads the body itself (multipart, bytes) or there is none. */
  body?: z.ZodType<Body>;
  /** A body that is a file's bytes, in one of these media types (the handler reads it). */
  bytesIn?: string[];
  /** The query string's schema (each parameter one property). */
  query?: z.ZodType<Query>;
  /** Everything the handler itself answers; the router adds what it answers for every call (400, 401, 413, 429, 500). */
  answers: A;
  handle: (call: Call<Body, Who, Query>) => Promise<Replied<A>> | Replied<A>;
}

export interface ApiRoute extends Omit<Declared<unknown, Member | null, unknown, Answers>, "body" | "query" | "handle"> {
  body?: z.ZodType;
  query?: z.ZodType;
  /** The same path as a pattern; its groups are the parameters, in order. */
  pattern: RegExp;
  /** Whether a member must be signed in (else 4010). */
  needsMember: boolean;
  handle: (call: Call<never, Member | null, never>) => Promise<Response> | Response;
}

/** Path parameters are numbers, except an upload's id (the UUID its start answered), a photo's name and a language tag. */
export const parameterIsText = (path: string, name: string) =>
  (path.startsWith("/uploads/") && name === "id") || name === "photo" || name === "lang";
const patternOf = (path: string) =>
  new RegExp(
    `^${path.replace(/\./g, "\\.").replace(/\{(\w+)\}/g, (_, name: string) => (parameterIsText(path, name) ? "([\\w-]+)" : "(\\d+)"))}$`,
  );

/** A call for signed-in members. */
export const forMember = <Body = undefined, Query = undefined, const A extends Answers = Answers>(
  spec: Declared<Body, Member, Query, A>,
): ApiRoute => ({ ...spec, pattern: patternOf(spec.path), needsMember: true }) as ApiRoute;

/** A call anyone may make (sign-up, login, codes, the document). */
export const forAnyone = <Body = undefined, Query = undefined, const A extends Answers = Answers>(
  spec: Declared<Body, null, Query, A>,
): ApiRoute => ({ ...spec, pattern: patternOf(spec.path), needsMember: false }) as ApiRoute;
