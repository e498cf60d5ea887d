// The API's contract, served at /api/openapi.json. Contract tests check the handlers against it.
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
          code: { type: "integer", enum: [400, 401, 403, 404, 405, 429, 4010] },
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

const body = (properties: Record<string, object>, required: string[]) => ({
  required: true,
  content: { "application/json": { schema: { type: "object", required, properties } } },
});
const okWith = (data: object | null, description = "code 0") => ({
  description,
  content: { "application/json": { schema: envelope(data) } },
});
const str = { type: "string" };
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
        requestBody: body({ email: str, pwd: str }, ["email", "pwd"]),
        responses: { "200": okWith(session), "400": error, "401": error, "429": error },
      },
    },
    "/users/send-verification-code": {
      post: {
        summary: "Send a 6-digit code (valid 10 minutes, one a minute). Same answer for every email.",
        requestBody: body({ email: str, purpose: { type: "string", enum: ["register", "reset"], default: "register" } }, ["email"]),
        responses: { "200": okWith(null), "400": error, "429": error },
      },
    },
    "/users/register": {
      post: {
        summary: "Create an account with a code from send-verification-code; answers a session",
        requestBody: body(
          {
            email: str,
            code: str,
            pwd: { type: "string", minLength: 8, maxLength: 256 },
            nick_name: str,
            account_type: { type: "integer", enum: [1, 2] },
            kind: { type: "string", enum: ["individual", "facilitator"], default: "individual" },
            organisation: { type: "string", description: "required for facilitators" },
          },
          ["email", "code", "pwd", "nick_name", "account_type"],
        ),
        responses: { "201": okWith(session), "400": error, "429": error },
      },
    },
    "/users/forgot-password": {
      post: {
        summary: "Send a password-reset code. Same answer for every email.",
        requestBody: body({ email: str }, ["email"]),
        responses: { "200": okWith(null), "400": error, "429": error },
      },
    },
    "/users/reset-password": {
      post: {
        summary: "Set a new password with a reset code; ends every session of the member",
        requestBody: body({ email: str, code: str, pwd: { type: "string", minLength: 8, maxLength: 256 } }, ["email", "code", "pwd"]),
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
