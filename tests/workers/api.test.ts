import { env } from "cloudflare:workers";
import { Validator } from "@cfworker/json-schema";
import { describe, expect, it } from "vitest";
import ja from "#locales/ja/translation";
import zh from "#locales/zh/translation";
import { foldReadings } from "~/.server/stats/fold";
import { tokenCookie } from "~/.server/web/auth/cookies";
import { errorAnswer } from "~/.server/web/observability/error-answer";
import { document, handleApi } from "~/api/router";
import { SESSION_IDLE_MS } from "~/lib/config";
import { zonedToUtc } from "~/lib/time-zone";
import { makePdf } from "../../scripts/make-pdf.mjs";
import { htmlBytes, multipart, pdfBytes, pngBytes, textFields } from "../fixtures/files";
import { mailedCode, newItem, testCaller, uniqueEmail, until } from "./helpers";

type Schema = Record<string, unknown>;

/** Problems of a value against a JSON Schema of the document, by a maintained validator that runs in workerd. */
const conforms = (value: unknown, schema: Schema) =>
  new Validator(schema as never, "2020-12", false).validate(value).errors.map((e) => `${e.instanceLocation}: ${e.error}`);

const paths = document().paths as unknown as Record<
  string,
  Record<string, { responses: Record<string, { content?: { "application/json": { schema: Schema } } }> }>
>;

const ERROR_DOC = paths["/users/login"]?.post?.responses["400"];
const NOW = Date.UTC(2026, 10, 22, 9, 0); // testCaller's default clock

async function call(
  method: string,
  path: string,
  options: {
    body?: unknown;
    raw?: { body: BodyInit; type: string };
    token?: string;
    caller?: ReturnType<typeof testCaller>;
    language?: "en" | "ja" | "zh";
  } = {},
) {
  const { caller, settle } = options.caller ?? testCaller();
  const headers: Record<string, string> = { "Content-Type": options.raw?.type ?? "application/json" };
  if (options.token) headers.Authorization = `Bearer ${options.token}`;
  const request = new Request(`https://app.test/api${path}`, {
    method,
    headers,
    body: options.raw?.body ?? (options.body === undefined ? undefined : JSON.stringify(options.body)),
  });
  const response = await handleApi({ ...caller, language: options.language ?? "en", request });
  await settle();
  const json = (await response.json()) as {
    code: number;
    message: string;
    data?: Record<string, unknown>;
    errors?: Record<string, string[]>;
  };
  // Every answer must match the documented contract for its path, method and status.
  const template = path
    .replace(/\/parts\/\d+$/, "/parts/{n}")
    .replace(/^\/(users|contents|comments|members|conversations|meetings)\/\d+/, "/$1/{id}")
    .replace(/^\/interests\/\d+$/, "/interests/{sdg}")
    .replace(/^\/notifications\/goals\/\w+$/, "/notifications/goals/{sdg}")
    .replace(/^\/notifications\/searches\/\d+$/, "/notifications/searches/{id}")
    .replace(/^\/tags\/\d+$/, "/tags/{id}")
    .replace(/^\/review\/verifications\/\d+$/, "/review/verifications/{id}")
    .replace(/^\/uploads\/[\w-]{36}/, "/uploads/{id}");
  // A method a path does not have (405) answers the common error shape.
  const documented =
    paths[template]?.[method.toLowerCase()]?.responses[String(response.status)] ?? (response.status === 405 ? ERROR_DOC : undefined);
  if (documented?.content) expect(conforms(json, documented.content["application/json"].schema)).toEqual([]);
  else if (template in paths) throw new Error(`${method} ${template} answered ${response.status}, which is not documented`);
  return { status: response.status, json, headers: response.headers };
}

const userId = (res: { json: { data?: unknown } }) => (res.json.data as { user: { id: number } }).user.id;

async function registered(accountType: 1 | 2 = 1) {
  const email = uniqueEmail("api");
  await call("POST", "/users/send-verification-code", { body: { email } });
  const code = await mailedCode(email);
  const res = await call("POST", "/users/register", {
    body: { email, code, pwd: "river stones and moss", nick_name: "Api", account_type: accountType },
  });
  return { email, res };
}

describe("the JSON API (spec section 7)", () => {
  it("follows goals and saves searches: listed, idempotent, refused when wrong", async () => {
    const token = ((await registered()).res.json.data as { access_token: string }).access_token;
    expect((await call("PUT", "/notifications/goals/14", { token })).json.data).toMatchObject({ goals: [14] });
    expect((await call("PUT", "/notifications/goals/14", { token })).json.data).toMatchObject({ goals: [14] });
    expect((await call("PUT", "/notifications/goals/18", { token })).status).toBe(404);
    const saved = await call("POST", "/notifications/searches", { token, body: { q: "coral  reef", sdg: 14 } });
    const id = (saved.json.data as { id: number }).id;
    expect((await call("POST", "/notifications/searches", { token, body: { q: "coral reef", sdg: 14 } })).json.data).toEqual({ id });
    expect((await call("POST", "/notifications/searches", { token, body: { q: "  " } })).status).toBe(400);
    expect((await call("GET", "/notifications/following", { token })).json.data).toMatchObject({
      goals: [14],
      searches: [{ id, q: "coral reef", kind: null, sdg: 14 }],
    });
    expect((await call("DELETE", `/notifications/searches/${id}`, { token })).status).toBe(200);
    expect((await call("DELETE", `/notifications/searches/${id}`, { token })).status).toBe(404);
    expect((await call("DELETE", "/notifications/goals/14", { token })).json.data).toMatchObject({ goals: [], searches: [] });
  });

  it("answers and changes how each kind of notification reaches me, refusing a channel it does not know", async () => {
    const token = ((await registered()).res.json.data as { access_token: string }).access_token;
    const before = await call("GET", "/notifications/preferences", { token });
    expect(before.json.data?.channels).toMatchObject({ meeting: "mail", like: "weekly", moderation: "mail" });
    const changed = await call("PUT", "/notifications/preferences", { token, body: { channels: { like: "off", reply: "daily" } } });
    expect(changed.json.data?.channels).toMatchObject({ like: "off", reply: "daily", meeting: "mail" });
    expect((await call("PUT", "/notifications/preferences", { token, body: { channels: { like: "loud" } } })).status).toBe(400);
    expect((await call("PUT", "/notifications/preferences", { token, body: { channels: { everything: "off" } } })).status).toBe(400);
  });

  it("answers statistics: mine, an item's for its owner only, and my score's history", async () => {
    const owner = (await registered()).res.json.data as { access_token: string; user: { id: number } };
    const reader = (await registered(2)).res.json.data as { access_token: string; user: { id: number } };
    const item = await newItem(owner.user.id);
    const reading = { kind: "view" as const, content: item, member: reader.user.id, type: 2 as const, day: "2026-11-22" };
    await foldReadings([
      { ...reading, id: crypto.randomUUID(), at: NOW },
      { ...reading, id: crypto.randomUUID(), at: NOW - 40 * 86_400_000, day: "2026-10-13" },
    ]);
    const mine = await call("GET", "/stats/me", { token: owner.access_token });
    expect(mine.status).toBe(200);
    expect(mine.json.data).toMatchObject({
      range: "30d",
      per: "day",
      to: "2026-11-22",
      totals: { views: 1 },
      previous: { views: 1 },
      has_more: false,
    });
    expect(mine.json.data?.items).toEqual([expect.objectContaining({ id: item, counts: expect.objectContaining({ views: 1 }) })]);
    const year = await call("GET", "/stats/me?range=12m&per=week", { token: owner.access_token });
    expect(year.json.data).toMatchObject({ range: "12m", per: "week", totals: { views: 2 } });
    const theirs = await call("GET", `/contents/${item}/stats`, { token: owner.access_token });
    expect(theirs.json.data).toMatchObject({ totals: { views: 1 }, readers: { researchers: 0, supporters: 1 } });
    expect((await call("GET", `/contents/${item}/stats`, { token: reader.access_token })).status).toBe(404);
    const history = await call("GET", "/ranking/me/history", { token: owner.access_token });
    expect(history.json.data).toEqual({ history: [] });
  });

  it("POST /users/login answers the spec's session shape", async () => {
    const { email } = await registered();
    const { status, json } = await call("POST", "/users/login", { body: { email, pwd: "river stones and moss" } });
    expect(status).toBe(200);
    expect(json.code).toBe(0);
    expect(json.data).toMatchObject({ token_type: "Bearer", user: { account_type: 1, nick_name: "Api", image: null } });
  });

  it("POST /users/login with wrong credentials: non-zero code, one translated message", async () => {
    const { email } = await registered();
    const wrong = await call("POST", "/users/login", { body: { email, pwd: "nope" }, language: "ja" });
    const unknown = await call("POST", "/users/login", { body: { email: uniqueEmail(), pwd: "nope" }, language: "ja" });
    expect(wrong.status).toBe(401);
    expect(wrong.json).toEqual({ code: 401, message: "メールアドレスまたはパスワードが正しくありません" });
    expect(unknown.json).toEqual(wrong.json);
  });

  it("validates bodies with the spec's messages, per field", async () => {
    const { status, json } = await call("POST", "/users/login", { body: { email: "", pwd: "" } });
    expect(status).toBe(400);
    expect(json.errors).toEqual({ email: ["Email cannot be empty"], pwd: ["Password can not be empty"] });
    const format = await call("POST", "/users/login", { body: { email: "not-an-email", pwd: "x" }, language: "zh" });
    expect(format.json.errors?.email).toEqual(["请输入正确的邮箱格式！"]);
  });

  it("POST /users/register creates an account of the chosen type (201) and refuses a wrong code", async () => {
    const { res } = await registered(2);
    expect(res.status).toBe(201);
    expect(res.json.data).toMatchObject({ token_type: "Bearer", user: { account_type: 2 } });
    const bad = await call("POST", "/users/register", {
      body: { email: uniqueEmail(), code: "000000", pwd: "river stones and moss", nick_name: "x", account_type: 1 },
    });
    expect(bad.status).toBe(400);
    expect(bad.json.errors).toEqual({ code: ["The verification code is incorrect"] });
    const badType = await call("POST", "/users/register", {
      body: { email: uniqueEmail(), code: "123456", pwd: "river stones and moss", nick_name: "x", account_type: 3 },
    });
    expect(badType.json.errors?.account_type).toEqual(["Please choose an account type"]);
  });

  it("send-verification-code and forgot-password answer known and unknown emails alike", async () => {
    const { email } = await registered();
    for (const path of ["/users/send-verification-code", "/users/forgot-password"]) {
      const known = await call("POST", path, { body: { email, purpose: "reset" } });
      const unknown = await call("POST", path, { body: { email: uniqueEmail(), purpose: "reset" } });
      expect(known.status === 200 || known.status === 429).toBe(true);
      expect(unknown.status).toBe(200);
      expect(unknown.json).toEqual({ code: 0, message: "Send Success", data: null });
    }
  });

  it("a second code within a minute is refused with 429 and Retry-After", async () => {
    const email = uniqueEmail();
    await call("POST", "/users/forgot-password", { body: { email } });
    const again = await call("POST", "/users/forgot-password", { body: { email } });
    expect(again.status).toBe(429);
    expect(again.json.code).toBe(429);
    expect(Number(again.headers.get("Retry-After"))).toBeGreaterThan(0);
  });

  it("POST /users/reset-password sets the new password and ends the old sessions", async () => {
    const { email, res } = await registered();
    const oldToken = String(res.json.data?.access_token);
    await call("POST", "/users/forgot-password", { body: { email }, caller: testCaller(NOW + 120_000) });
    const code = await mailedCode(email);
    const reset = await call("POST", "/users/reset-password", {
      body: { email, code, pwd: "a fresh new passphrase" },
      caller: testCaller(NOW + 130_000),
    });
    expect(reset.json).toEqual({ code: 0, message: "Reset Password Success", data: null });
    expect((await call("GET", "/auth/info", { token: oldToken })).json.code).toBe(4010);
  });

  it("GET /auth/info needs a token: none or expired answers code 4010", async () => {
    const { res } = await registered();
    const token = String(res.json.data?.access_token);
    const info = await call("GET", "/auth/info", { token });
    expect(info.json.data?.user).toMatchObject({ account_type: 1, nick_name: "Api" });
    const none = await call("GET", "/auth/info");
    expect(none).toMatchObject({ status: 401, json: { code: 4010 } });
    const later = testCaller(NOW + SESSION_IDLE_MS + 60_000);
    const expired = await call("GET", "/auth/info", { token, caller: later });
    expect(expired).toMatchObject({ status: 401, json: { code: 4010, message: "Your session has expired. Please log in again." } });
  });

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

  it("answers a suspended member's login with the documented 403, saying why", async () => {
    const { email, res } = await registered();
    await env.DB.prepare("UPDATE users SET suspended_reason = 'spam' WHERE id = ?").bind(userId(res)).run();
    const refused = await call("POST", "/users/login", { body: { email, pwd: "river stones and moss" } });
    expect(refused).toMatchObject({ status: 403, json: { code: 403 } });
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

  it("GET /users/{id} is 403 for another member's account", async () => {
    const a = await registered();
    const b = await registered();
    const token = String(a.res.json.data?.access_token);
    const own = await call("GET", `/users/${userId(a.res)}`, { token });
    expect(own.status).toBe(200);
    const other = await call("GET", `/users/${userId(b.res)}`, { token });
    expect(other).toMatchObject({ status: 403, json: { code: 403 } });
  });

  it("DELETE /auth/logout ends the session", async () => {
    const { res } = await registered();
    const token = String(res.json.data?.access_token);
    expect((await call("DELETE", "/auth/logout", { token })).json.code).toBe(0);
    expect((await call("GET", "/auth/info", { token })).json.code).toBe(4010);
  });

  it("has no call that changes the account type", async () => {
    const { res } = await registered();
    const token = String(res.json.data?.access_token);
    for (const method of ["POST", "PUT", "PATCH"]) {
      const { status } = await call(method, "/auth/info", { token, body: { account_type: 2 } });
      expect(status).toBe(405);
    }
    const row = await env.DB.prepare("SELECT account_type FROM users WHERE id = ?").bind(userId(res)).first();
    expect(row).toEqual({ account_type: 1 });
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
    expect(Object.keys(query("/search")).sort()).toEqual(["license", "page", "q", "sdg", "since", "tab", "type"]);
    expect(query("/search").tab).toMatchObject({ enum: ["documents", "videos", "members"] });
    expect(Object.keys(query("/recommendations"))).toEqual(["page"]);
    expect(Object.keys(query("/conversations/{id}/messages")).sort()).toEqual(["after", "before", "limit"]);
    expect(doc.paths["/conversations/{id}/messages"]?.get?.parameters?.some((p) => p.in === "path" && p.name === "id")).toBe(true);
  });

  it("pages a conversation's history from its first message with after=0", async () => {
    const a = await registered();
    const b = await registered();
    const token = (res: { json: { data?: unknown } }) => (res.json.data as { access_token: string }).access_token;
    const started = await call("POST", "/conversations", { token: token(a.res), body: { user_id: userId(b.res) } });
    const id = (started.json.data as { conversation: { id: number } }).conversation.id;
    for (let i = 0; i < 3; i++)
      await call("POST", `/conversations/${id}/messages`, { token: token(a.res), body: { body: `m${i}`, client_id: `history-${i}-0000` } });
    const page = await call("GET", `/conversations/${id}/messages?after=0&limit=2`, { token: token(a.res) });
    expect((page.json.data as { messages: { body: string }[]; has_more: boolean }).messages.map((m) => m.body)).toEqual(["m0", "m1"]);
    expect((page.json.data as { has_more: boolean }).has_more).toBe(true);
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
        "/contents/{id}/citation",
        "/contents/{id}/comments",
        "/contents/{id}/file",
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

describe("the content API", () => {
  async function multipartBody(parts: Parameters<typeof multipart>[0]) {
    const { body, contentType } = multipart(parts);
    return { body: await new Response(body).arrayBuffer(), type: contentType };
  }

  it("reads an uploaded PDF's text through the queue: its owner sees the state, search answers the passage and page", async () => {
    const { res } = await registered();
    const token = String(res.json.data?.access_token);
    const pdf = makePdf([["Contents"], ["Method"], ["We found the glimmerwort effect here."]]);
    const raw = await multipartBody([
      ...textFields(),
      { name: "thumbnail", filename: "t.png", type: "image/png", body: pngBytes() },
      { name: "file", filename: "paper.pdf", type: "application/pdf", body: pdf },
    ]);
    const id = ((await call("POST", "/contents", { token, raw })).json.data as { id: number }).id;
    const text = await until(async () => {
      const content = (await call("GET", `/contents/${id}`, { token })).json.data?.content as { text: { state: string } } | undefined;
      return content?.text.state === "done" && content.text;
    });
    expect(text).toEqual({ state: "done", note: null, pages: 3, page_count: 3 });
    const stranger = String((await registered()).res.json.data?.access_token);
    expect((await call("GET", `/contents/${id}`, { token: stranger })).json.data?.content).toMatchObject({ text: null });
    const found = await call("GET", "/search?q=glimmerwort", { token: stranger });
    expect(found.json.data?.results).toEqual([
      expect.objectContaining({ id, passage: { text: "We found the \u0001glimmerwort\u0002 effect here.", page: 3 } }),
    ]);
  });

  it("uploads, reads, edits, serves with Range and deletes a document", async () => {
    const { res } = await registered();
    const token = String(res.json.data?.access_token);
    const raw = await multipartBody([
      ...textFields(),
      { name: "thumbnail", filename: "t.png", type: "image/png", body: pngBytes() },
      { name: "file", filename: "x.pdf", type: "application/pdf", body: pdfBytes() },
    ]);
    const created = await call("POST", "/contents", { token, raw });
    expect(created.status).toBe(201);
    const id = (created.json.data as { id: number }).id;
    const item = await call("GET", `/contents/${id}`, { token });
    expect(item.json.data?.content).toMatchObject({
      id,
      kind: "document",
      sdg: 6,
      title: "Clean water",
      file_url: `/api/contents/${id}/file`,
    });
    const edit = await call("PATCH", `/contents/${id}`, {
      token,
      body: { sdg: 3, title: "Edited", summary: "s", content: "c", keywords: "k", publicize: "0" },
    });
    expect(edit.json).toEqual({ code: 0, message: "Update Success", data: null });
    const request = new Request(`https://app.test/api/contents/${id}/file`, {
      headers: { Authorization: `Bearer ${token}`, Range: "bytes=0-4" },
    });
    const file = await handleApi({ ...testCaller().caller, request });
    expect(file.status).toBe(206);
    expect(await file.text()).toBe("%PDF-");
    const stranger = await registered();
    const hidden = await call("GET", `/contents/${id}`, { token: String(stranger.res.json.data?.access_token) });
    expect(hidden).toMatchObject({ status: 404, json: { code: 404 } });
    expect((await call("DELETE", `/contents/${id}`, { token })).json.code).toBe(0);
    expect((await call("GET", `/contents/${id}`, { token })).status).toBe(404);
  });

  it("refuses a file that is not a PDF or MP4 with 415 and a translated message", async () => {
    const { res } = await registered();
    const raw = await multipartBody([...textFields(), { name: "file", filename: "x.pdf", type: "application/pdf", body: htmlBytes() }]);
    const refused = await call("POST", "/contents", { token: String(res.json.data?.access_token), raw, language: "ja" });
    expect(refused).toMatchObject({ status: 415, json: { code: 415, message: "アップロードできるのはPDFまたはMP4ファイルのみです" } });
  });

  it("takes a resumable upload in parts and creates content from it", async () => {
    const { res } = await registered();
    const token = String(res.json.data?.access_token);
    const pdf = pdfBytes();
    const started = await call("POST", "/uploads", { token, body: { size: pdf.length } });
    expect(started.status).toBe(201);
    const id = String(started.json.data?.id);
    expect((await call("POST", `/uploads/${id}/complete`, { token })).status).toBe(409);
    const part = await call("PUT", `/uploads/${id}/parts/1`, { token, raw: { body: pdf.slice(), type: "application/octet-stream" } });
    expect(part.json.data).toEqual({ part: 1 });
    expect((await call("GET", `/uploads/${id}`, { token })).json.data).toMatchObject({ parts: [1] });
    expect((await call("POST", `/uploads/${id}/complete`, { token })).json.code).toBe(0);
    const raw = await multipartBody([
      ...textFields(),
      { name: "upload_id", value: id },
      { name: "thumbnail", filename: "t.png", type: "image/png", body: pngBytes() },
    ]);
    const created = await call("POST", "/contents", { token, raw });
    expect(created.status).toBe(201);
    expect((await call("GET", `/uploads/${id}`, { token })).status).toBe(404);
  });

  it("needs a token (4010)", async () => {
    expect((await call("GET", "/contents/1")).json.code).toBe(4010);
    expect((await call("POST", "/uploads", { body: { size: 10 } })).json.code).toBe(4010);
  });
});

describe("the social and discovery API", () => {
  it("feed, search, like, comment, follow and ranking, each answering its documented shape", async () => {
    const author = await registered();
    const reader = await registered();
    const authorToken = String(author.res.json.data?.access_token);
    const token = String(reader.res.json.data?.access_token);
    const { body, contentType } = multipart([
      ...textFields({ title: "Mangrove restoration notes" }),
      { name: "thumbnail", filename: "t.png", type: "image/png", body: pngBytes() },
      { name: "file", filename: "x.pdf", type: "application/pdf", body: pdfBytes() },
    ]);
    const created = await call("POST", "/contents", {
      token: authorToken,
      raw: { body: await new Response(body).arrayBuffer(), type: contentType },
    });
    const id = (created.json.data as { id: number }).id;

    const feed = await call("GET", "/contents?sort=newest", { token });
    expect((feed.json.data as { items: { id: number }[] }).items.map((i) => i.id)).toContain(id);
    const search = await call("GET", "/search?q=Mangrove", { token });
    expect((search.json.data as { results: { id: number }[] }).results.map((r) => r.id)).toEqual([id]);
    expect((await call("GET", "/search/history", { token })).json.data).toEqual({ history: ["Mangrove"] });

    await call("POST", `/contents/${id}/like`, { token });
    const liked = await call("POST", `/contents/${id}/like`, { token });
    expect(liked.json.data).toMatchObject({ liked: true });
    expect((await call("GET", `/contents/${id}`, { token })).json.data?.content).toMatchObject({ likes: 1 });

    expect((await call("POST", `/contents/${id}/comments`, { token, body: { body: "" } })).status).toBe(400);
    expect((await call("POST", `/contents/${id}/comments`, { token, body: { body: "Useful, thanks" } })).status).toBe(201);
    const comments = (await call("GET", `/contents/${id}/comments`, { token })).json.data as { comments: { id: number; body: string }[] };
    expect(comments.comments.map((c) => c.body)).toEqual(["Useful, thanks"]);
    expect((await call("DELETE", `/comments/${comments.comments[0]?.id}`, { token: authorToken })).status).toBe(404);
    expect((await call("DELETE", `/comments/${comments.comments[0]?.id}`, { token })).json.code).toBe(0);

    const authorId = userId(author.res);
    await call("POST", `/users/${authorId}/follow`, { token });
    expect((await call("POST", `/users/${authorId}/follow`, { token })).json.data).toEqual({ followers: 1 });
    expect((await call("DELETE", `/users/${authorId}/follow`, { token })).json.data).toEqual({ followers: 0 });

    const ranking = await call("GET", "/ranking", { token });
    expect(ranking.status).toBe(200);
    // The reader commented once (1 point); the author uploaded once (10) and was liked once (1).
    const readerPoints = (await call("GET", "/points", { token })).json.data as { awards: { reason: string }[]; period_total: number };
    expect(readerPoints.awards.map((a) => a.reason)).toEqual(["comment"]);
    expect(readerPoints.period_total).toBe(1);
    const authorPoints = (await call("GET", "/points", { token: authorToken })).json.data as {
      awards: { reason: string }[];
      period_total: number;
      rules: object;
    };
    expect(authorPoints.awards.map((a) => a.reason).sort()).toEqual(["like_received", "upload"]);
    expect(authorPoints.period_total).toBe(11);
    expect(authorPoints.rules).toMatchObject({ upload: { amount: 10, daily_cap: 3 } });
  });

  it("member pages, interests and recommendations, each answering its documented shape", async () => {
    const author = await registered();
    const reader = await registered();
    const token = String(reader.res.json.data?.access_token);
    const authorId = userId(author.res);
    await call("POST", `/users/${authorId}/follow`, { token });
    const page = await call("GET", `/members/${authorId}`, { token });
    expect(page.json.data).toMatchObject({ is_self: false, viewer_follows: true, member: { id: authorId, followers: 1 } });
    expect((await call("GET", "/members/987654321", { token })).status).toBe(404);

    expect((await call("POST", "/interests", { token, body: { sdg: 4 } })).json.data).toEqual({ interests: [4] });
    const repeat = await call("POST", "/interests", { token, body: { sdg: 4 }, language: "ja" });
    expect(repeat.status).toBe(400);
    expect(repeat.json.message).toBe(ja.validation.repeatAddition);
    expect((await call("POST", "/interests", { token, body: { sdg: 18 } })).status).toBe(400);
    expect((await call("DELETE", "/interests/4", { token })).json.data).toEqual({ interests: [] });
    expect((await call("GET", "/interests", { token })).json.data).toEqual({ interests: [] });

    const picks = await call("GET", "/recommendations?page=1", { token });
    expect(picks.json.data).toMatchObject({ page: 1, has_more: expect.any(Boolean) });
    expect((await call("GET", "/recommendations", {})).json.code).toBe(4010);
  });
});

describe("the conversations API (spec section 7)", () => {
  it("starts a conversation, sends once per client id, pages history, counts unread, and keeps others out", async () => {
    const alice = await registered();
    const bob = await registered();
    const eve = await registered();
    const [a = "", b = "", e = ""] = [alice, bob, eve].map((m) => String(m.res.json.data?.access_token));
    const started = await call("POST", "/conversations", { token: a, body: { user_id: userId(bob.res) } });
    expect(started.status).toBe(201);
    const id = Number((started.json.data?.conversation as { id: number } | undefined)?.id);
    expect((await call("POST", "/conversations", { token: b, body: { user_id: userId(alice.res) } })).status).toBe(200);
    expect((await call("POST", "/conversations", { token: a, body: { user_id: 987654321 } })).status).toBe(404);
    expect((await call("POST", "/conversations", { token: a, body: {} })).status).toBe(400);

    const send = (body: string, client_id: string, token = a) =>
      call("POST", `/conversations/${id}/messages`, { token, body: { body, client_id } });
    expect((await send("hello Bob", "client-0001")).status).toBe(201);
    const again = await send("hello Bob", "client-0001");
    expect(again.status).toBe(200);
    const empty = await send("   ", "client-0002");
    expect([empty.status, empty.json.message]).toEqual([400, "Input Cannot Empty"]);
    expect((await send("x".repeat(2001), "client-0003")).status).toBe(400);
    for (let i = 4; i < 40; i++) expect((await send(`m${i}`, `client-00${i}`)).status).toBe(201);

    const unreadFor = async (token: string) => {
      const list = await call("GET", "/conversations", { token });
      expect(list.json.code).toBe(0);
      return (list.json.data?.conversations as { id: number; unread_count: number }[] | undefined)?.find((c) => c.id === id)?.unread_count;
    };
    expect(await unreadFor(b)).toBe(37);

    const newest = await call("GET", `/conversations/${id}/messages?limit=10`, { token: b });
    const page = newest.json.data as { messages: { id: number; body: string }[]; has_more: boolean };
    expect(page.messages.map((m) => m.body)).toEqual(Array.from({ length: 10 }, (_, i) => `m${30 + i}`));
    expect(page.has_more).toBe(true);
    const older = (await call("GET", `/conversations/${id}/messages?before=${page.messages[0]?.id}&limit=100`, { token: b })).json
      .data as typeof page;
    expect(older.messages.map((m) => m.body)).toEqual(["hello Bob", ...Array.from({ length: 26 }, (_, i) => `m${4 + i}`)]);
    expect(older.has_more).toBe(false);
    // Reading the newest page marked it read.
    expect(await unreadFor(b)).toBe(0);

    expect((await call("GET", `/conversations/${id}/messages`, { token: e })).status).toBe(404);
    expect((await send("let me in", "client-eve1", e)).status).toBe(404);
    expect((await call("GET", "/conversations", {})).json.code).toBe(4010);
  });
});

describe("the settings API", () => {
  const profile = {
    nick_name: "Api Settled",
    sex: "female",
    birthday: "1985-12-24",
    address: "Somewhere 1",
    first_name: "Ada",
    middle_name: "B",
    family_name: "Lovelace",
    country: "GB",
    nationality: "GB",
    academic: "Mathematics",
    research: "Analytical engines",
    website: "https://example.org",
    phone: "+44 20 7946 0000",
    purpose: "Share notes",
    public: true,
  };

  it("saves the profile (never the account type), answers it back, and refuses an empty field per field", async () => {
    const { res } = await registered();
    const token = String(res.json.data?.access_token);
    expect((await call("GET", "/settings/profile", { token })).json.data).toMatchObject({ account_type: 1, profile: null });
    const empty = await call("PUT", "/settings/profile", { token, body: { ...profile, family_name: "" }, language: "zh" });
    expect(empty.status).toBe(400);
    expect(empty.json.errors?.family_name).toEqual(["姓不能为空"]);
    const saved = await call("PUT", "/settings/profile", { token, body: { ...profile, account_type: 2, kind: "facilitator" } });
    expect(saved.status).toBe(200);
    const read = await call("GET", "/settings/profile", { token });
    expect(read.json.data).toMatchObject({
      account_type: 1,
      kind: "individual",
      nick_name: "Api Settled",
      profile: { phone: "+442079460000" },
    });
    const country = await call("PUT", "/settings/profile", { token, body: { ...profile, country: "XX" } });
    expect(country).toMatchObject({ status: 400, json: { errors: { country: ["Please choose a country from the list"] } } });
  });

  it("sets an avatar from an image's bytes, refuses a file posing as one in the member's language, and removes it", async () => {
    const { res } = await registered();
    const token = String(res.json.data?.access_token);
    const set = await call("PUT", "/settings/avatar", { token, raw: { body: pngBytes().slice(), type: "image/png" } });
    expect(set.json.data?.image).toMatch(/^\/avatars\/\d+\/[\w-]+\.jpg$/);
    expect((await call("GET", "/auth/info", { token })).json.data).toMatchObject({ user: { image: set.json.data?.image } });
    const posing = await call("PUT", "/settings/avatar", { token, raw: { body: htmlBytes().slice(), type: "image/png" }, language: "ja" });
    expect(posing).toMatchObject({ status: 400, json: { errors: { avatar: [ja.validation.avatarType] } } });
    expect((await call("DELETE", "/settings/avatar", { token })).json.data).toEqual({ image: null });
  });

  it("changes the password with the current one: other sessions end, this token goes on", async () => {
    const { email, res } = await registered();
    const token = String(res.json.data?.access_token);
    const other = await call("POST", "/users/login", { body: { email, pwd: "river stones and moss" } });
    const otherToken = String(other.json.data?.access_token);
    const change = { current_password: "not it at all", password: "a new river of stones", confirm_password: "a new river of stones" };
    const wrong = await call("PUT", "/settings/password", { token, body: change });
    expect(wrong).toMatchObject({ status: 400, json: { errors: { current_password: ["The current password is incorrect"] } } });
    const changed = await call("PUT", "/settings/password", { token, body: { ...change, current_password: "river stones and moss" } });
    expect(changed.status).toBe(200);
    expect((await call("GET", "/auth/info", { token })).status).toBe(200);
    expect((await call("GET", "/auth/info", { token: otherToken })).json.code).toBe(4010);
    expect((await call("POST", "/users/login", { body: { email, pwd: "a new river of stones" } })).status).toBe(200);
  });

  it("lets only one of two password changes at once win", async () => {
    const { res } = await registered();
    const token = String(res.json.data?.access_token);
    const body = (password: string) => ({ current_password: "river stones and moss", password, confirm_password: password });
    const answers = await Promise.all([
      call("PUT", "/settings/password", { token, body: body("first new passphrase") }),
      call("PUT", "/settings/password", { token, body: body("second new passphrase") }),
    ]);
    expect(answers.map((a) => a.status).sort()).toEqual([200, 400]);
  });
});

describe("the meetings API", () => {
  const meeting = {
    title: "Api sync",
    agenda: "Numbers",
    time_zone: "Europe/Berlin",
    // A week from the real clock (the API schedules against it), as Berlin's wall clock.
    starts_at: `${new Date(Date.now() + 7 * 86_400_000).toISOString().slice(0, 11)}10:00`,
    duration: 30,
    emails: "a@b.example",
  };

  it("schedules, reads, changes and cancels a meeting for its host; others get 404 for every call", async () => {
    const host = String((await registered()).res.json.data?.access_token);
    const other = String((await registered()).res.json.data?.access_token);
    const created = await call("POST", "/meetings", { token: host, body: meeting });
    expect(created.status).toBe(201);
    const id = Number(created.json.data?.id);
    expect((await call("GET", `/meetings/${id}`, { token: host })).json.data).toMatchObject({
      title: "Api sync",
      starts_at: zonedToUtc(meeting.starts_at, "Europe/Berlin"),
      emails: ["a@b.example"],
      sequence: 0,
    });
    expect((await call("GET", `/meetings/${id}/join`, { token: host })).json.data).toMatchObject({ joinable: false, start_url: null });
    for (const [method, path] of [
      ["GET", `/meetings/${id}`],
      ["GET", `/meetings/${id}/join`],
      ["PUT", `/meetings/${id}`],
      ["DELETE", `/meetings/${id}`],
    ] as const) {
      expect((await call(method, path, { token: other, body: method === "PUT" ? meeting : undefined })).status, `${method} ${path}`).toBe(
        404,
      );
    }
    expect((await call("PUT", `/meetings/${id}`, { token: host, body: { ...meeting, title: "Api sync 2" } })).status).toBe(200);
    expect((await call("DELETE", `/meetings/${id}`, { token: host })).status).toBe(200);
    expect((await call("DELETE", `/meetings/${id}`, { token: host })).status).toBe(200);
    const listed = await call("GET", "/meetings", { token: host });
    expect(listed.json.data).toMatchObject({ upcoming: [], past: [{ id, title: "Api sync 2", sequence: 2 }] });
  });

  it("schedules one meeting for one client_key posted twice, and refuses an edit of an older version with 409", async () => {
    const host = String((await registered()).res.json.data?.access_token);
    const body = { ...meeting, emails: uniqueEmail("api"), client_key: "api-form-key-1" };
    const [first, second] = await Promise.all([
      call("POST", "/meetings", { token: host, body }),
      call("POST", "/meetings", { token: host, body }),
    ]);
    expect([first.status, second.status].sort()).toEqual([200, 201]);
    expect(second.json.data?.id).toBe(first.json.data?.id);
    expect((await call("GET", "/meetings", { token: host })).json.data).toMatchObject({ upcoming: [{ id: first.json.data?.id }] });
    const id = Number(first.json.data?.id);
    expect((await call("PUT", `/meetings/${id}`, { token: host, body: { ...body, title: "Renamed", sequence: 0 } })).status).toBe(200);
    const stale = await call("PUT", `/meetings/${id}`, { token: host, body: { ...body, title: "Stale", sequence: 0 }, language: "zh" });
    expect(stale).toMatchObject({ status: 409, json: { message: zh.validation.meetingChanged } });
    expect((await call("GET", `/meetings/${id}`, { token: host })).json.data).toMatchObject({ title: "Renamed", sequence: 1 });
  });

  it("takes its fields in snake_case only: the form's camelCase names are not read", async () => {
    const host = String((await registered()).res.json.data?.access_token);
    const { time_zone, starts_at, ...rest } = meeting;
    const camel = await call("POST", "/meetings", { token: host, body: { ...rest, timeZone: time_zone, startsAt: starts_at } });
    expect(camel.status).toBe(400);
    expect(Object.keys(camel.json.errors ?? {}).sort()).toEqual(["starts_at", "time_zone"]);
  });

  it("refuses a start in the past beside its field, in the member's language", async () => {
    const host = String((await registered()).res.json.data?.access_token);
    const past = await call("POST", "/meetings", { token: host, body: { ...meeting, starts_at: "2020-01-01T10:00" }, language: "ja" });
    expect(past).toMatchObject({ status: 400, json: { errors: { starts_at: [ja.validation.meetingStartPast] } } });
  });
});

describe("the notifications API", () => {
  it("lists a new follower as a sentence in the member's language with where it leads, counts it, and marks it read", async () => {
    const followed = await registered();
    const follower = await registered();
    const token = String(followed.res.json.data?.access_token);
    const idOf = (res: typeof followed.res) => Number((res.json.data?.user as { id?: number } | undefined)?.id);
    const [followedId, followerId] = [idOf(followed.res), idOf(follower.res)];
    await call("POST", `/users/${followedId}/follow`, { token: String(follower.res.json.data?.access_token) });
    expect((await call("GET", "/notifications/unread", { token })).json.data).toEqual({ count: 1 });
    const listed = await call("GET", "/notifications", { token, language: "ja" });
    expect(listed.json.data).toMatchObject({
      notifications: [
        { kind: "follower", text: "Apiさんがあなたをフォローしました", target: `/personal?member=${followerId}`, read_at: null },
      ],
    });
    expect((await call("POST", "/notifications/read", { token, body: {} })).json.data).toEqual({ changed: 1 });
    expect((await call("GET", "/notifications/unread", { token })).json.data).toEqual({ count: 0 });
  });
});

describe("the tags API", () => {
  it("adds tags up to the membership level's limit, refuses a repeat and one more, and removes", async () => {
    const { res } = await registered();
    const token = String(res.json.data?.access_token);
    const start = await call("GET", "/tags", { token });
    expect(start.json.data).toMatchObject({ tags: [], level: "free", limit: 3 });
    for (const tag of ["Innovation", "ocean acidification", "科学"])
      expect((await call("POST", "/tags", { token, body: { tag } })).status).toBe(201);
    const repeat = await call("POST", "/tags", { token, body: { tag: "innovation" }, language: "ja" });
    expect(repeat).toMatchObject({ status: 400, json: { errors: { tag: [ja.validation.repeatAddition] } } });
    const more = await call("POST", "/tags", { token, body: { tag: "one more" } });
    expect(more).toMatchObject({ status: 400, json: { errors: { tag: ["Your membership level allows 3 tags"] } } });
    const listed = (await call("GET", "/tags", { token })).json.data as { tags: { id: number; tag: string }[] };
    expect(listed.tags.map((t) => t.tag)).toEqual(["innovation", "ocean acidification", "science"]);
    const removed = await call("DELETE", `/tags/${listed.tags[0]?.id}`, { token });
    expect((removed.json.data as { tags: unknown[] }).tags).toHaveLength(2);
  });
});

describe("the verification API", () => {
  it("takes a multipart submission, keeps reviewers' calls to reviewers, and tells the member the decision", async () => {
    const { res } = await registered();
    const token = String(res.json.data?.access_token);
    expect((await call("GET", "/verification", { token })).json.data).toEqual({ kind: "personal", status: "none", reason: null });
    const form = (idBack: Uint8Array) =>
      multipart([
        ...Object.entries({ name: "Ada B", id_number: "X1", address: "1 Lane", contact_phone: "+441234567" }).map(([name, value]) => ({
          name,
          value,
        })),
        { name: "id_front", filename: "front.png", type: "image/png", body: pngBytes() },
        { name: "id_back", filename: "back.png", type: "image/png", body: idBack },
      ]);
    const posing = form(htmlBytes());
    const refused = await call("POST", "/verification", { token, raw: { body: posing.body, type: posing.contentType } });
    expect(refused).toMatchObject({ status: 400, json: { errors: { id_back: ["The image must be PNG or JPG"] } } });
    const good = form(pngBytes());
    expect((await call("POST", "/verification", { token, raw: { body: good.body, type: good.contentType } })).status).toBe(201);
    expect((await call("GET", "/review/verifications", { token })).status).toBe(403);

    const reviewer = await registered();
    const reviewerId = userId(reviewer.res);
    await env.DB.prepare("INSERT INTO member_roles (user_id, role, granted_at) VALUES (?, 'reviewer', 0)").bind(reviewerId).run();
    const reviewerToken = String(reviewer.res.json.data?.access_token);
    const queue = (await call("GET", "/review/verifications", { token: reviewerToken })).json.data as {
      queue: { id: number; user_id: number; fields: Record<string, string>; photos: { name: string; url: string }[] }[];
    };
    const mine = queue.queue.find((item) => item.user_id === userId(res));
    // The fields as the member sent them: snake_case, as the document says (never the form's idNumber).
    expect(mine?.fields).toEqual({ name: "Ada B", id_number: "X1", address: "1 Lane", contact_phone: "+441234567" });
    expect(mine?.photos.map((p) => p.name)).toEqual(["id_front", "id_back"]);
    const photo = async (bearer: string) => {
      const request = new Request(`https://app.test${mine?.photos[0]?.url}`, { headers: { Authorization: `Bearer ${bearer}` } });
      return handleApi({ ...testCaller().caller, request });
    };
    const seen = await photo(reviewerToken);
    expect(seen.status).toBe(200);
    expect(seen.headers.get("Content-Type")).toBe("image/png");
    expect(seen.headers.get("Cache-Control")).toBe("private, no-store");
    expect((await photo(token)).status).toBe(403);
    const decided = await call("POST", `/review/verifications/${mine?.id}`, {
      token: reviewerToken,
      body: { decision: "reject", reason: "Blurred" },
    });
    expect(decided.status).toBe(200);
    expect((await call("POST", `/review/verifications/${mine?.id}`, { token: reviewerToken, body: { decision: "approve" } })).status).toBe(
      404,
    );
    expect((await call("GET", "/verification", { token })).json.data).toMatchObject({ status: "rejected", reason: "Blurred" });
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
