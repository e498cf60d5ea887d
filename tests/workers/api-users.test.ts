import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { SESSION_IDLE_MS } from "~/lib/config";
import { call, NOW, registered, userId } from "./api-helpers";
import { mailedCode, testCaller, uniqueEmail } from "./helpers";

// The accounts API (app/api/users.ts): signing up, logging in and out, codes and password resets,
// the session behind /auth/info, and the account type no call changes.

describe("the JSON API (spec section 7)", () => {
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

  it("answers a suspended member's login with the documented 403, saying why", async () => {
    const { email, res } = await registered();
    await env.DB.prepare("UPDATE users SET suspended_reason = 'spam' WHERE id = ?").bind(userId(res)).run();
    const refused = await call("POST", "/users/login", { body: { email, pwd: "river stones and moss" } });
    expect(refused).toMatchObject({ status: 403, json: { code: 403 } });
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
});
