import { z } from "zod";
import { apiError } from "./answers";
import { documentedAs } from "./casing";
import { type Answer, type ApiRoute, parameterIsText, REFUSAL } from "./define";

// /api/openapi.json, generated whole from the route table: paths, parameters, request bodies and
// every answer come from the zod schemas the router checks input with and the contract tests check
// answers with, so the document cannot drift from what the API does.

const STATUS: Record<number, string> = {
  200: "OK",
  201: "Created",
  206: "The requested bytes",
  304: "Not modified (ETag)",
  400: "Bad input; `errors` has the translated messages per field",
  401: "Wrong email or password (code 401), or no valid token (code 4010)",
  403: "Not available to you",
  404: "Not found, or not visible to you",
  409: "Not yet possible; `errors` says what is missing",
  413: "Too large",
  415: "Not a type this call takes (judged by the bytes)",
  416: "Range not satisfiable",
  429: "Too many requests; Retry-After says when to try again",
  500: "Failed on our side; the answer carries the request id",
};

/** A zod schema as JSON Schema: what a request may send (io "input": defaults make fields optional) or what an answer holds. */
export function jsonSchema(schema: z.ZodType, io: "input" | "output" = "output") {
  const { $schema: _dialect, ...rest } = z.toJSONSchema(documentedAs(schema), { io, unrepresentable: "any" });
  return rest;
}

// Inlined, not a $ref: each answer's schema stands alone for validators and generators alike.
const refusal = () => jsonSchema(apiError);

function response(status: number, answer: Answer) {
  const description = STATUS[status] ?? String(status);
  if (answer === REFUSAL) return { description, content: { "application/json": { schema: refusal() } } };
  if ("bytes" in answer) {
    const schema = (type: string) => (type === "application/json" ? { type: "object" } : { type: "string", format: "binary" });
    return { description: answer.bytes, content: Object.fromEntries(answer.types.map((type) => [type, { schema: schema(type) }])) };
  }
  if ("empty" in answer) return { description: answer.empty };
  const envelope = {
    type: "object",
    required: ["code", "message", "data"],
    properties: { code: { const: 0 }, message: { type: "string", description: "translated (Accept-Language)" }, data: jsonSchema(answer) },
    additionalProperties: false,
  };
  return { description, content: { "application/json": { schema: envelope } } };
}

/** What the router itself answers for a call, beside what its handler declares. */
function routerAnswers(route: ApiRoute): number[] {
  return [
    ...(route.body || route.query || route.bytesIn ? [400] : []),
    ...(route.needsMember ? [401, 429] : []),
    ...(route.role ? [403] : []),
    ...(route.body || route.bytesIn ? [413] : []),
    500,
  ];
}

/** Operations are tagged by their path's first segment; each tag says what it groups. */
const TAGS: Record<string, string> = {
  auth: "The session behind a token",
  comments: "Comments members wrote",
  contents: "Documents and videos: the feed, one item, its file, likes and comments",
  conversations: "Private messages between two members",
  document: "This API description, as JSON and readable",
  interests: "The goals a member follows (at most five)",
  notifications: "What happened while you were away: the bell and its list",
  meetings: "Online meetings: schedule, change, cancel, join (the host and invited members only)",
  members: "Members' pages",
  points: "Points members earn",
  ranking: "The credit-score ranking",
  tags: "Your profile tags (limited by membership level)",
  recommendations: "What to read next",
  search: "Full-text search and its history",
  settings: "Your profile and password",
  stats: "Your statistics over time",
  uploads: "Resumable uploads, in parts",
  verification: "Your identity verification",
  review: "Reviewers: the verification queue (role reviewer)",
  users: "Accounts: sign-up, login, codes, passwords, following",
};
const tagOf = (route: ApiRoute) => {
  const segment = route.path.split("/")[1] ?? "";
  return segment in TAGS ? segment : "document"; // /openapi.json and /docs
};

const operationId = (route: ApiRoute) =>
  route.method.toLowerCase() +
  route.path
    .split(/[/{}.-]+/)
    .filter(Boolean)
    .map((word) => word[0]?.toUpperCase() + word.slice(1))
    .join("");

function operation(route: ApiRoute) {
  const inPath = [...route.path.matchAll(/\{(\w+)\}/g)].map(([, name = ""]) => ({
    name,
    in: "path",
    required: true,
    schema: { type: parameterIsText(route.path, name) ? "string" : "integer" },
  }));
  const { properties = {} } = route.query ? (jsonSchema(route.query, "input") as { properties?: Record<string, object> }) : {};
  const inQuery = Object.entries(properties).map(([name, schema]) => ({ name, in: "query", schema }));
  const responses: Record<string, object> = {};
  for (const [status, answer] of Object.entries(route.answers)) responses[status] = response(Number(status), answer);
  for (const status of routerAnswers(route)) responses[status] ??= response(status, REFUSAL);
  return {
    operationId: operationId(route),
    tags: [tagOf(route)],
    summary: route.summary,
    ...(route.role ? { "x-role": route.role } : {}),
    ...(route.description ? { description: route.description } : {}),
    security: route.needsMember ? [{ bearer: [] }] : [],
    ...(inPath.length + inQuery.length ? { parameters: [...inPath, ...inQuery] } : {}),
    ...(route.body
      ? { requestBody: { required: true, content: { "application/json": { schema: jsonSchema(route.body, "input") } } } }
      : {}),
    ...(route.bytesIn
      ? {
          requestBody: {
            required: true,
            content: Object.fromEntries(route.bytesIn.map((type) => [type, { schema: { type: "string", format: "binary" } }])),
          },
        }
      : {}),
    responses,
  };
}

/** The whole document for a route table. */
export function apiDocument(routes: ApiRoute[]) {
  const paths: Record<string, Record<string, object>> = {};
  for (const route of routes) {
    paths[route.path] ??= {};
    (paths[route.path] as Record<string, object>)[route.method.toLowerCase()] = operation(route);
  }
  const tags = [...new Set(routes.map(tagOf))].sort();
  return {
    openapi: "3.1.0",
    info: {
      title: "Research Commons API",
      version: "1.0.0",
      description:
        "Every JSON answer is the envelope {code, message, data}: code 0 is success, anything else a refusal with a translated message (Accept-Language: en, ja, zh). Authenticate with `Authorization: Bearer <access_token>` from /users/login. Pages on other origins may not call the API (403).",
    },
    servers: [{ url: "/api" }],
    tags: tags.map((name) => ({ name, description: TAGS[name] })),
    components: { securitySchemes: { bearer: { type: "http", scheme: "bearer" } } },
    paths,
  };
}
