import { expect, test } from "./fixtures";

test.skip(() => test.info().project.name !== "js", "requests only: once is enough");

test("API calls run none of the pages' middleware: a pending notice, the language and the session cookie stay untouched", async ({
  request,
}) => {
  const flash = encodeURIComponent(JSON.stringify({ id: "abc12345", kind: "success", key: "notify.updateSuccess" }));
  for (const path of ["/api/openapi.json", "/api/auth/info", "/api/no-such-call"]) {
    const response = await request.get(path, { headers: { Cookie: `flash=${flash}; token=Bearer%20${"x".repeat(43)}` } });
    expect(response.headers()["content-type"]).toContain("application/json");
    const cookies = response.headersArray().filter((h) => h.name.toLowerCase() === "set-cookie");
    expect(cookies.map((c) => c.value.split("=")[0])).toEqual([]);
  }
});
