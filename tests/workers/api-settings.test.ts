import { describe, expect, it } from "vitest";
import ja from "#locales/ja/translation";
import { htmlBytes, pngBytes } from "../fixtures/files";
import { call, registered } from "./api-helpers";

// The settings API (app/api/settings.ts): the profile (never the account type), the avatar from an
// image's bytes, and the password changed with the current one, once when two changes race.

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
