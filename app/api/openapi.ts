import { z } from "zod";
import type { ApiRoute } from "./define";

// The API's contract, served at /api/openapi.json: the answers written here (contract tests check the
// handlers against them), the request bodies generated from the router's schemas (apiDocument).
const envelope = (data: object | null) => ({
  type: "object",
  required: ["code", "message"],
  properties: {
    code: { type: "integer", description: "0 on success" },
    message: { type: "string", description: "translated (Accept-Language)" },
    ...(data ? { data } : {}),
  },
});

const error = {
  description:
    "code 400 (bad input, with errors per field), 401 (wrong email or password), 403 (forbidden), 429 (too many requests, Retry-After), 4010 (missing or expired token)",
  content: {
    "application/json": {
      schema: {
        type: "object",
        required: ["code", "message"],
        properties: {
          code: { type: "integer", enum: [400, 401, 403, 404, 405, 409, 413, 415, 429, 4010] },
          message: { type: "string" },
          errors: { type: "object", additionalProperties: { type: "array", items: { type: "string" } } },
        },
      },
    },
  },
};

const user = {
  type: "object",
  required: ["account_type", "id", "nick_name", "image"],
  properties: {
    account_type: { type: "integer", enum: [1, 2], description: "1 Researcher, 2 Investor or supporter; never changes" },
    id: { type: "integer" },
    nick_name: { type: "string" },
    image: { type: ["string", "null"] },
  },
};

const session = {
  type: "object",
  required: ["token_type", "access_token", "user"],
  properties: { token_type: { type: "string", enum: ["Bearer"] }, access_token: { type: "string" }, user },
};

const okWith = (data: object | null, description = "code 0") => ({
  description,
  content: { "application/json": { schema: envelope(data) } },
});
const integer = { type: "integer" };
const feedItem = {
  type: "object",
  required: ["id", "kind", "sdg", "title", "summary", "views", "likes", "created_at", "owner_id", "owner_name"],
  properties: {
    id: integer,
    kind: { type: "string", enum: ["document", "video"] },
    sdg: { type: "integer", minimum: 1, maximum: 17 },
    title: { type: "string" },
    summary: { type: "string" },
    views: integer,
    likes: integer,
    created_at: integer,
    owner_id: integer,
    owner_name: { type: "string" },
  },
};
const searchHit = {
  type: "object",
  required: ["id"],
  description: "A document or video (title highlighted between U+0001 and U+0002, with a snippet) or a member, as the query's type says",
  properties: { id: integer, title: { type: "string" }, snippet: { type: "string" }, nick_name: { type: "string" } },
};
const comment = {
  type: "object",
  required: ["id", "user_id", "nick_name", "body", "created_at"],
  properties: { id: integer, user_id: integer, nick_name: { type: "string" }, body: { type: "string" }, created_at: integer },
};
const rankingRow = {
  type: "object",
  required: ["rank", "user_id", "nick_name", "account_type", "score"],
  properties: {
    rank: integer,
    user_id: integer,
    nick_name: { type: "string" },
    account_type: { type: "integer", enum: [1, 2] },
    score: { type: "number" },
  },
};
const memberRow = {
  type: "object",
  required: ["id", "nick_name", "account_type"],
  properties: {
    id: integer,
    nick_name: { type: "string" },
    account_type: { type: "integer", enum: [1, 2] },
    image: { type: ["string", "null"] },
  },
};
const goals = { type: "array", items: { type: "integer", minimum: 1, maximum: 17 } };
const str = { type: "string" };
const interests = {
  type: "object",
  required: ["interests"],
  properties: { interests: { type: "array", items: { type: "integer" } } },
};
const message = {
  type: "object",
  required: ["id", "conversation_id", "sender_id", "client_id", "body", "created_at"],
  properties: {
    id: { type: "integer", description: "increases in the order messages were stored" },
    conversation_id: { type: "integer" },
    sender_id: { type: "integer" },
    client_id: { type: "string" },
    body: { type: "string" },
    created_at: { type: "integer", description: "ms since the epoch" },
  },
};
const conversationSummary = {
  type: "object",
  required: ["id", "other", "last_message", "unread_count"],
  properties: {
    id: { type: "integer" },
    other: { type: "object", required: ["id", "nick_name"], properties: { id: { type: "integer" }, nick_name: { type: "string" } } },
    last_message: { type: ["object", "null"] },
    unread_count: { type: "integer" },
  },
};
const idParam = { name: "id", in: "path", required: true, schema: { type: "integer" } };
const uploadParam = { name: "id", in: "path", required: true, schema: { type: "string" } };
const content = {
  type: "object",
  required: [
    "id",
    "owner_id",
    "owner_name",
    "kind",
    "sdg",
    "title",
    "summary",
    "content",
    "keywords",
    "publicize",
    "views",
    "likes",
    "created_at",
  ],
  properties: {
    id: { type: "integer" },
    owner_id: { type: "integer" },
    owner_name: str,
    kind: { type: "string", enum: ["document", "video"] },
    sdg: { type: "integer", description: "1-17" },
    title: str,
    summary: str,
    content: str,
    keywords: str,
    publicize: { type: "integer", enum: [0, 1] },
    views: { type: "integer" },
    likes: { type: "integer" },
    created_at: { type: "integer" },
    file_url: str,
    thumbnail_url: str,
  },
};
const uploadStatus = {
  type: "object",
  required: ["id", "partSize", "parts"],
  properties: { id: str, partSize: { type: "integer" }, parts: { type: "array", items: { type: "integer" } } },
};
const binary = (description: string) => ({
  description,
  content: { "application/octet-stream": { schema: { type: "string", format: "binary" } } },
});
const bearer = [{ bearer: [] }];

export const OPENAPI = {
  openapi: "3.1.0",
  info: { title: "Research Commons API", version: "1.0.0", description: "Every response is {code, message, data}; code 0 is success." },
  servers: [{ url: "/api" }],
  components: { securitySchemes: { bearer: { type: "http", scheme: "bearer" } } },
  paths: {
    "/users/login": {
      post: {
        summary: "Log in with email and password",
        responses: { "200": okWith(session), "400": error, "401": error, "429": error },
      },
    },
    "/users/send-verification-code": {
      post: {
        summary: "Send a 6-digit code (valid 10 minutes, one a minute). Same answer for every email.",
        responses: { "200": okWith(null), "400": error, "429": error },
      },
    },
    "/users/register": {
      post: {
        summary: "Create an account with a code from send-verification-code; answers a session",
        responses: { "201": okWith(session), "400": error, "429": error },
      },
    },
    "/users/forgot-password": {
      post: {
        summary: "Send a password-reset code. Same answer for every email.",
        responses: { "200": okWith(null), "400": error, "429": error },
      },
    },
    "/users/reset-password": {
      post: {
        summary: "Set a new password with a reset code; ends every session of the member",
        responses: { "200": okWith(null), "400": error, "429": error },
      },
    },
    "/users/{id}": {
      get: {
        summary: "A member's own account details (403 for anyone else's)",
        security: bearer,
        parameters: [{ name: "id", in: "path", required: true, schema: { type: "integer" } }],
        responses: { "200": okWith({ type: "object", properties: { user } }), "401": error, "403": error },
      },
    },
    "/contents": {
      get: {
        summary: "The discovery feed: publicized items; query sdg, kind, sort (newest|views|likes), page",
        security: bearer,
        responses: {
          "200": okWith({ type: "object", properties: { items: { type: "array", items: feedItem }, hasMore: { type: "boolean" } } }),
          "401": error,
        },
      },
      post: {
        summary: "Upload a document (PDF) or video (MP4) with its thumbnail: one multipart/form-data post, streamed",
        description:
          "Fields kind (document|video), sdg (1-17), title, summary, content, keywords, publicize (1|0), thumbnail (PNG/JPG, 5 MB, 4000 px), and either file (PDF/MP4, 100 MB, judged by content) or upload_id of a completed /uploads upload.",
        security: bearer,
        requestBody: { required: true, content: { "multipart/form-data": { schema: { type: "object" } } } },
        responses: {
          "201": okWith({ type: "object", properties: { id: { type: "integer" } } }),
          "400": error,
          "401": error,
          "413": error,
          "415": error,
        },
      },
    },
    "/contents/{id}": {
      get: {
        summary: "One item (404 when private to someone else)",
        security: bearer,
        parameters: [idParam],
        responses: { "200": okWith({ type: "object", properties: { content } }), "401": error, "404": error },
      },
      patch: {
        summary: "The owner edits sdg, title, summary, content, keywords, publicize (all required)",
        security: bearer,
        parameters: [idParam],
        responses: { "200": okWith(null), "400": error, "401": error, "404": error },
      },
      delete: {
        summary: "The owner deletes the item and its files",
        security: bearer,
        parameters: [idParam],
        responses: { "200": okWith(null), "401": error, "404": error },
      },
    },
    "/contents/{id}/file": {
      get: {
        summary: "The file: Range (206), ETag (304), Content-Disposition",
        security: bearer,
        parameters: [idParam],
        responses: {
          "200": binary("the file"),
          "206": binary("the requested bytes"),
          "304": { description: "unchanged" },
          "404": error,
          "416": { description: "range not satisfiable" },
        },
      },
    },
    "/contents/{id}/thumbnail": {
      get: {
        summary: "The thumbnail image",
        security: bearer,
        parameters: [idParam],
        responses: { "200": binary("PNG or JPEG"), "404": error },
      },
    },
    "/uploads": {
      post: {
        summary: "Start a resumable upload of {size} bytes (at most 100 MB); parts are partSize bytes, the last the rest",
        security: bearer,
        responses: { "201": okWith(uploadStatus), "400": error, "401": error, "413": error },
      },
    },
    "/uploads/{id}": {
      get: {
        summary: "What has arrived, to resume",
        security: bearer,
        parameters: [uploadParam],
        responses: { "200": okWith(uploadStatus), "401": error, "404": error },
      },
      delete: {
        summary: "Cancel: drop the upload and its parts",
        security: bearer,
        parameters: [uploadParam],
        responses: { "200": okWith(null), "401": error, "404": error },
      },
    },
    "/uploads/{id}/parts/{n}": {
      put: {
        summary: "Part n as raw bytes; the first part must be a PDF or MP4",
        security: bearer,
        parameters: [uploadParam, { name: "n", in: "path", required: true, schema: { type: "integer" } }],
        requestBody: { required: true, content: { "application/octet-stream": { schema: { type: "string", format: "binary" } } } },
        responses: {
          "200": okWith({ type: "object", properties: { part: { type: "integer" } } }),
          "401": error,
          "404": error,
          "413": error,
          "415": error,
        },
      },
    },
    "/uploads/{id}/complete": {
      post: {
        summary: "Join the parts (409 lists missing parts)",
        security: bearer,
        parameters: [uploadParam],
        responses: { "200": okWith({ type: "object" }), "401": error, "404": error, "409": error, "415": error },
      },
    },
    "/search": {
      get: {
        summary:
          "Full-text search; query q, tab (documents|videos|members), sdg, since (week|month|year), type (1|2), page (20 a page). Matches are wrapped in U+0001/U+0002.",
        security: bearer,
        responses: {
          "200": okWith({
            type: "object",
            required: ["results", "hasMore"],
            properties: { results: { type: "array", items: searchHit }, hasMore: { type: "boolean" } },
          }),
          "401": error,
        },
      },
    },
    "/search/history": {
      get: {
        summary: "The member's last ten searches",
        security: bearer,
        responses: {
          "200": okWith({ type: "object", properties: { history: { type: "array", items: { type: "string" } } } }),
          "401": error,
        },
      },
      delete: { summary: "Clear the search history", security: bearer, responses: { "200": okWith(null), "401": error } },
    },
    "/contents/{id}/like": {
      post: {
        summary: "Like (idempotent)",
        security: bearer,
        parameters: [idParam],
        responses: { "200": okWith({ type: "object" }), "401": error, "404": error },
      },
      delete: {
        summary: "Unlike (idempotent)",
        security: bearer,
        parameters: [idParam],
        responses: { "200": okWith({ type: "object" }), "401": error, "404": error },
      },
    },
    "/contents/{id}/comments": {
      get: {
        summary: "The item's comments, oldest first",
        security: bearer,
        parameters: [idParam],
        responses: {
          "200": okWith({ type: "object", properties: { comments: { type: "array", items: comment } } }),
          "401": error,
          "404": error,
        },
      },
      post: {
        summary: "Comment (1-1000 characters); 403 when commenting is not available to you",
        security: bearer,
        parameters: [idParam],
        responses: { "201": okWith(null), "200": okWith(null), "400": error, "401": error, "403": error, "404": error },
      },
    },
    "/comments/{id}": {
      delete: {
        summary: "Delete one's own comment",
        security: bearer,
        parameters: [idParam],
        responses: { "200": okWith(null), "401": error, "404": error },
      },
    },
    "/users/{id}/follow": {
      post: {
        summary: "Follow a member (idempotent); 403 'This is not available.' when it is not available to you",
        security: bearer,
        parameters: [idParam],
        responses: {
          "200": okWith({ type: "object", properties: { followers: { type: "integer" } } }),
          "401": error,
          "403": error,
          "404": error,
        },
      },
      delete: {
        summary: "Unfollow (idempotent)",
        security: bearer,
        parameters: [idParam],
        responses: { "200": okWith({ type: "object", properties: { followers: { type: "integer" } } }), "401": error, "404": error },
      },
    },
    "/ranking": {
      get: {
        summary: "The stored ranking (ties share a rank) and the member's own score with its breakdown",
        security: bearer,
        responses: { "200": okWith({ type: "object", properties: { ranking: { type: "array", items: rankingRow } } }), "401": error },
      },
    },
    "/points": {
      get: {
        summary:
          "Your points ledger: the 50 newest awards, the total over the last 30 days, and the rules (amount and daily cap per reason)",
        security: bearer,
        responses: {
          "200": okWith({
            type: "object",
            required: ["awards", "periodTotal", "rules"],
            properties: {
              awards: {
                type: "array",
                items: {
                  type: "object",
                  required: ["reason", "amount", "day", "created_at"],
                  properties: { reason: { type: "string", enum: ["upload", "comment", "likeReceived"] }, amount: { type: "integer" } },
                },
              },
              periodTotal: { type: "integer" },
              rules: { type: "object" },
            },
          }),
          "401": error,
        },
      },
    },
    "/members/{id}": {
      get: {
        summary:
          "A member's page: profile basics, follower/following counts and lists (50 newest), uploads (publicized only, unless it is you), interests, and whether you follow them",
        security: bearer,
        parameters: [idParam],
        responses: {
          "200": okWith({
            type: "object",
            required: ["member", "isSelf", "viewerFollows", "uploads", "followers", "following", "interests"],
            properties: {
              member: {
                type: "object",
                required: ["id", "nick_name", "account_type", "followers", "following", "uploads"],
                properties: {
                  id: { type: "integer" },
                  followers: { type: "integer" },
                  following: { type: "integer" },
                  uploads: { type: "integer" },
                },
              },
              isSelf: { type: "boolean" },
              viewerFollows: { type: "boolean" },
              uploads: { type: "array", items: feedItem },
              followers: { type: "array", items: memberRow },
              following: { type: "array", items: memberRow },
              interests: goals,
            },
          }),
          "401": error,
          "404": error,
        },
      },
    },
    "/interests": {
      get: {
        summary: "Your interests (goals 1-17)",
        security: bearer,
        responses: { "200": okWith(interests), "401": error },
      },
      post: {
        summary: "Add an interest; at most 5, a repeat is refused with 'Repeat addition'",
        security: bearer,
        responses: { "201": okWith(interests), "400": error, "401": error },
      },
    },
    "/interests/{sdg}": {
      delete: {
        summary: "Remove an interest (idempotent)",
        security: bearer,
        parameters: [{ name: "sdg", in: "path", required: true, schema: { type: "integer" } }],
        responses: { "200": okWith(interests), "401": error },
      },
    },
    "/recommendations": {
      get: {
        summary: "Your recommended list: from members you follow and your interests first, then by popularity; query page (12 a page)",
        security: bearer,
        responses: {
          "200": okWith({
            type: "object",
            required: ["items", "hasMore", "page"],
            properties: { items: { type: "array", items: feedItem }, hasMore: { type: "boolean" }, page: { type: "integer" } },
          }),
          "401": error,
        },
      },
    },
    "/conversations": {
      get: {
        summary: "Your conversations, latest activity first, each with its unread_count",
        security: bearer,
        responses: {
          "200": okWith({
            type: "object",
            required: ["conversations"],
            properties: { conversations: { type: "array", items: conversationSummary } },
          }),
          "401": error,
        },
      },
      post: {
        summary: "Start a conversation with user_id, or get the existing one (200); 403 when it is not available to you",
        security: bearer,
        responses: {
          "200": okWith({ type: "object", required: ["conversation"], properties: { conversation: conversationSummary } }),
          "201": okWith({ type: "object", required: ["conversation"], properties: { conversation: conversationSummary } }),
          "400": error,
          "401": error,
          "403": error,
          "404": error,
        },
      },
    },
    "/conversations/{id}/messages": {
      get: {
        summary:
          "History, oldest first: the newest `limit` messages (1-100, default 30), or those `before` / `after` a message id; hasMore says whether more lie in that direction. Reading the newest page marks the conversation read. 404 to anyone who is not a member.",
        security: bearer,
        parameters: [idParam],
        responses: {
          "200": okWith({
            type: "object",
            required: ["messages", "hasMore"],
            properties: { messages: { type: "array", items: message }, hasMore: { type: "boolean" } },
          }),
          "401": error,
          "404": error,
        },
      },
      post: {
        summary:
          "Send (1-2000 characters, 'Input Cannot Empty' when blank). client_id (8-64 of A-Z a-z 0-9 _ -) is chosen by the sender: the same one again answers the stored message with 200 and stores nothing new. 403 when sending is not available to you.",
        security: bearer,
        parameters: [idParam],
        responses: {
          "201": okWith({ type: "object", required: ["message"], properties: { message } }),
          "200": okWith({ type: "object", required: ["message"], properties: { message } }),
          "400": error,
          "401": error,
          "403": error,
          "404": error,
        },
      },
    },
    "/auth/info": {
      get: {
        summary: "The member behind the token",
        security: bearer,
        responses: { "200": okWith({ type: "object", properties: { user } }), "401": error },
      },
    },
    "/auth/logout": {
      delete: { summary: "End this session", security: bearer, responses: { "200": okWith(null), "401": error } },
    },
  },
} as const;

/** A zod schema as the JSON Schema a request must meet (the input side: defaults make fields optional). */
function jsonSchema(schema: z.ZodType) {
  const { $schema: _dialect, ...rest } = z.toJSONSchema(schema, { io: "input", unrepresentable: "any" });
  return rest;
}

const operationId = (route: ApiRoute) =>
  route.method.toLowerCase() +
  route.path
    .split(/[/{}.-]+/)
    .filter(Boolean)
    .map((word) => word[0]?.toUpperCase() + word.slice(1))
    .join("");

/**
 * The document as served, completed from the route table: every operation's id, tag (its first path
 * segment) and security (none for the public calls), and every JSON request body and query parameter
 * generated from the zod schema the router checks it with (so formats, patterns, lengths and ranges cannot drift from
 * what is enforced).
 */
export function apiDocument(routes: ApiRoute[]) {
  const paths = structuredClone(OPENAPI.paths) as unknown as Record<string, Record<string, Record<string, unknown>>>;
  const tags = new Set<string>();
  for (const route of routes) {
    const operation = paths[route.path]?.[route.method.toLowerCase()];
    if (!operation) continue;
    const tag = route.path.split("/")[1] ?? "api";
    tags.add(tag);
    Object.assign(operation, { operationId: operationId(route), tags: [tag] });
    if (!route.needsMember) operation.security = [];
    if (route.body) operation.requestBody = { required: true, content: { "application/json": { schema: jsonSchema(route.body) } } };
    if (route.query) {
      const inPath = ((operation.parameters ?? []) as { in: string }[]).filter((parameter) => parameter.in === "path");
      const { properties = {} } = jsonSchema(route.query) as { properties?: Record<string, object> };
      operation.parameters = [...inPath, ...Object.entries(properties).map(([name, schema]) => ({ name, in: "query", schema }))];
    }
  }
  return { ...OPENAPI, tags: [...tags].sort().map((name) => ({ name })), paths };
}
