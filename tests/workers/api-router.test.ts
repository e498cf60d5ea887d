import { describe, expect, it } from "vitest";
import ja from "#locales/ja/translation";
import { tokenCookie } from "~/.server/web/auth/cookies";
import { errorAnswer } from "~/.server/web/observability/error-answer";
import { call, conforms, document, handleApi, paths, registered } from "./api-helpers";
import { testCaller } from "./helpers";

// The JSON API as a whole (app/api/router.ts, envelope.ts, openapi.ts): each member's rate limit,
// refusals in the documented shape, the OpenAPI document covering every route with closed snake_case
// schemas and the security the router enforces, and the token cookie a session rides on.

describe("the JSON API (spec section 7)", () => {
  it("limits each member's calls: past the limit a 429 in their language with Retry-After, while another member goes on", async () => {
    const a = String((await registered()).res.json.data?.access_token);
    const b = String((await registered()).res.json.data?.access_token);
    const limit = 400; // the workers pool's API_LIMITER (vitest.config.ts)
    const { caller } = testCaller();
    const request = () => new Request("https://app.test/api/search/history", { headers: { Authorization: `Bearer ${a}` } });
    // The limiter counts per minute: a minute that turns during the run resets it once, so call until the first refusal.
    let allowed = 0;
    while (allowed <= 2 * limit && (await handleApi({ ...caller, request: request() })).status === 200) allowed++;
    expect(allowed).toBeGreaterThanOrEqual(limit);
    expect(allowed).toBeLessThan(2 * limit);
    const refused = await call("GET", "/search/history", { token: a, language: "ja" });
    expect(refused.status).toBe(429);
    expect(refused.json).toEqual({ code: 429, message: ja.validation.rateLimited });
    expect(refused.headers.get("Retry-After")).toBe("60");
    expect((await call("GET", "/search/history", { token: b })).status).toBe(200);
  });

  it("answers a failure, and what the worker refuses before the API, in the documented refusal shape with the request id", async () => {
    const request = new Request("https://app.test/api/users/login", { method: "POST" });
    for (const [status, key] of [
      [500, "Error"],
      [413, "TooLarge"],
      [403, "CrossOrigin"],
    ] as const) {
      const answer = await errorAnswer(request, status, key, "request-1").json();
      const documented = paths["/users/login"]?.post?.responses[String(status)]?.content?.["application/json"].schema;
      expect(documented, String(status)).toBeDefined();
      expect(conforms(answer, documented ?? {}), String(status)).toEqual([]);
      expect(answer).toMatchObject({ code: status, request_id: "request-1" });
    }
  });

  it("documents every JSON body from the schema that checks it: email format, 6-digit code, name and password lengths, goal range", async () => {
    const response = await handleApi({ ...testCaller().caller, request: new Request("https://app.test/api/openapi.json") });
    type Body = { properties: Record<string, Record<string, unknown>>; required?: string[] };
    const doc = (await response.json()) as {
      paths: Record<string, Record<string, { requestBody?: { content: { "application/json": { schema: Body } } } }>>;
    };
    const body = (path: string, method: string) => doc.paths[path]?.[method]?.requestBody?.content["application/json"].schema;
    const register = body("/users/register", "post");
    expect(register?.properties.email).toMatchObject({ type: "string", format: "email", maxLength: 254 });
    expect(register?.properties.code).toMatchObject({ type: "string", pattern: "^\\d{6}$" });
    expect(register?.properties.pwd).toMatchObject({ minLength: 8, maxLength: 256 });
    expect(register?.properties.nick_name).toMatchObject({ maxLength: 50 });
    expect(register?.required).toEqual(expect.arrayContaining(["email", "code", "pwd", "nick_name", "account_type"]));
    expect(body("/interests", "post")?.properties.sdg).toMatchObject({ minimum: 1, maximum: 17 });
    expect(body("/contents/{id}", "patch")?.properties.title).toMatchObject({ maxLength: 200 });
    expect(body("/conversations/{id}/messages", "post")?.properties.body).toMatchObject({ maxLength: 2000 });
  });

  it("documents the query parameters of the feed, search, recommendations and history from the schemas that read them", async () => {
    const response = await handleApi({ ...testCaller().caller, request: new Request("https://app.test/api/openapi.json") });
    type Parameter = { name: string; in: string; schema: Record<string, unknown> };
    const doc = (await response.json()) as { paths: Record<string, Record<string, { parameters?: Parameter[] }>> };
    const query = (path: string) =>
      Object.fromEntries((doc.paths[path]?.get?.parameters ?? []).filter((p) => p.in === "query").map((p) => [p.name, p.schema]));
    expect(Object.keys(query("/contents")).sort()).toEqual(["kind", "page", "sdg", "sort"]);
    expect(query("/contents").sdg).toMatchObject({ minimum: 1, maximum: 17 });
    expect(Object.keys(query("/search")).sort()).toEqual(["funder", "license", "org", "page", "q", "sdg", "since", "tab", "type"]);
    expect(query("/search").tab).toMatchObject({ enum: ["documents", "videos", "members"] });
    expect(Object.keys(query("/recommendations"))).toEqual(["page"]);
    expect(Object.keys(query("/conversations/{id}/messages")).sort()).toEqual(["after", "before", "limit"]);
    expect(doc.paths["/conversations/{id}/messages"]?.get?.parameters?.some((p) => p.in === "path" && p.name === "id")).toBe(true);
  });

  it("documents every answer closed and in snake_case, so the contract check sees a key no schema names", () => {
    const open: string[] = [];
    const walk = (schema: unknown, at: string) => {
      if (!schema || typeof schema !== "object") return;
      const node = schema as { type?: string; properties?: object; additionalProperties?: unknown };
      for (const name of Object.keys(node.properties ?? {})) if (!/^[a-z0-9_]+$/.test(name)) open.push(`${at} names ${name}`);
      // A refusal's `errors` are per field, named in snake_case by the envelope (refusals.test.ts).
      if (node.type === "object" && node.additionalProperties !== false && !at.endsWith("/properties/errors")) open.push(`${at} is open`);
      for (const [key, value] of Object.entries(node)) walk(value, `${at}/${key}`);
    };
    for (const [path, operations] of Object.entries(paths))
      for (const [method, { responses }] of Object.entries(operations))
        for (const [status, answer] of Object.entries(responses))
          walk(answer.content?.["application/json"]?.schema, `${method.toUpperCase()} ${path} ${status}`);
    // Files of JSON are not envelopes: the document itself and the member's own data.
    expect(open.sort()).toEqual(["GET /openapi.json 200 is open", "GET /settings/export 200 is open"]);
  });

  it("serves its OpenAPI document, covering every route", async () => {
    const response = await handleApi({ ...testCaller().caller, request: new Request("https://app.test/api/openapi.json") });
    const doc = (await response.json()) as ReturnType<typeof document>;
    expect(Object.keys(doc.paths).sort()).toEqual(
      [
        "/auth/info",
        "/auth/logout",
        "/comments/{id}",
        "/contents",
        "/contents/prefill",
        "/contents/{id}",
        "/contents/{id}/annotations",
        "/contents/{id}/citation",
        "/contents/{id}/comments",
        "/contents/{id}/file",
        "/contents/{id}/funding",
        "/contents/{id}/funding/{funding_id}",
        "/funding/{id}",
        "/organisations",
        "/settings/organisation",
        "/contents/{id}/like",
        "/contents/{id}/stats",
        "/contents/{id}/thumbnail",
        "/contents/{id}/versions",
        "/contents/{id}/versions/{n}",
        "/contents/{id}/versions/{n}/file",
        "/contents/{id}/captions",
        "/contents/{id}/captions/{lang}",
        "/contents/{id}/captions/{lang}.vtt",
        "/ranking",
        "/ranking/me/history",
        "/stats/me",
        "/points",
        "/members/{id}",
        "/conversations",
        "/conversations/{id}/messages",
        "/interests",
        "/interests/{sdg}",
        "/meetings",
        "/meetings/{id}",
        "/meetings/{id}/join",
        "/notifications",
        "/notifications/unread",
        "/notifications/following",
        "/notifications/goals/{sdg}",
        "/notifications/preferences",
        "/notifications/read",
        "/notifications/searches",
        "/notifications/searches/{id}",
        "/recommendations",
        "/search",
        "/search/history",
        "/uploads",
        "/uploads/{id}",
        "/uploads/{id}/complete",
        "/uploads/{id}/parts/{n}",
        "/users/forgot-password",
        "/users/login",
        "/users/register",
        "/users/reset-password",
        "/users/send-verification-code",
        "/users/{id}",
        "/users/{id}/follow",
        "/openapi.json",
        "/docs",
        "/orcid",
        "/orcid/works",
        "/settings/profile",
        "/settings/password",
        "/settings/avatar",
        "/settings/export",
        "/settings/account",
        "/tags",
        "/tags/{id}",
        "/verification",
        "/review/verifications",
        "/review/verifications/{id}",
        "/review/verifications/{id}/photos/{photo}",
      ].sort(),
    );
  });

  it("documents security as the router enforces it: every call that needs a token refuses one without it, and no other does", async () => {
    const doc = document();
    for (const [path, operations] of Object.entries(doc.paths)) {
      for (const [method, operation] of Object.entries(operations as Record<string, { security: unknown[] }>)) {
        const concrete = path.replace(/\{\w+\}/g, "1");
        const request = new Request(`https://app.test/api${concrete}`, {
          method: method.toUpperCase(),
          headers: { "Content-Type": "application/json" },
        });
        const response = await handleApi({ ...testCaller().caller, request });
        const refused = response.status === 401 && ((await response.json()) as { code: number }).code === 4010;
        expect(refused, `${method} ${path}`).toBe(operation.security.length > 0);
      }
    }
  });

  it("names every property and parameter in snake_case, in bodies and answers alike (issue 31)", () => {
    const camel: string[] = [];
    const walk = (value: unknown, where: string) => {
      if (Array.isArray(value)) for (const inner of value) walk(inner, where);
      else if (value && typeof value === "object")
        for (const [key, inner] of Object.entries(value)) {
          const names = key === "properties" ? Object.keys(inner as object) : key === "name" && typeof inner === "string" ? [inner] : [];
          camel.push(...names.filter((name) => /[A-Z]/.test(name)).map((name) => `${where} ${name}`));
          walk(inner, key.startsWith("/") ? key : where);
        }
    };
    walk(document().paths, "");
    expect(camel).toEqual([]);
  });
});

describe("the token cookie", () => {
  it("holds 'Bearer <token>', HttpOnly, SameSite=Lax, and Secure except on plain-http localhost", () => {
    expect(tokenCookie(new Request("https://app.test/"), "abc")).toBe(
      "token=Bearer%20abc; Path=/; SameSite=Lax; Max-Age=43200; HttpOnly; Secure",
    );
    expect(tokenCookie(new Request("http://127.0.0.1:8787/"), "abc")).toBe(
      "token=Bearer%20abc; Path=/; SameSite=Lax; Max-Age=43200; HttpOnly",
    );
  });
});
