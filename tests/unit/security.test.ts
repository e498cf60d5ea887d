import { describe, expect, it } from "vitest";
import { readCookie, serializeCookie } from "~/.server/http/cookies";
import { contentSecurityPolicy, withSecurityHeaders } from "~/.server/web/security/headers";
import { isCrossSiteWrite } from "~/.server/web/security/same-origin";
import { safeRedirect } from "~/lib/safe-redirect";

describe("safeRedirect", () => {
  it.each([
    ["/retrieval?q=water#top", "/retrieval?q=water#top"],
    ["https://evil.example/", "/home"],
    ["//evil.example", "/home"],
    ["/\\evil.example", "/home"],
    ["javascript:alert(1)", "/home"],
    ["", "/home"],
    [null, "/home"],
  ])("%s -> %s", (input, expected) => {
    expect(safeRedirect(input)).toBe(expected);
  });
});

describe("cookies", () => {
  it("are HttpOnly and SameSite=Lax, and Secure over https only", () => {
    const https = serializeCookie(new Request("https://app.test/"), "a", "1 2");
    expect(https).toBe("a=1%202; Path=/; SameSite=Lax; HttpOnly; Secure");
    expect(serializeCookie(new Request("http://127.0.0.1/"), "a", "1", { httpOnly: false })).toBe("a=1; Path=/; SameSite=Lax");
  });

  it("are read by exact name", () => {
    const request = new Request("http://x/", { headers: { Cookie: "xa=0; a=%E6%97%A5; b=2" } });
    expect(readCookie(request, "a")).toBe("日");
    expect(readCookie(request, "c")).toBeUndefined();
  });
});

describe("security headers", () => {
  it("give HTML a nonce-based policy and everything else a policy that runs nothing", async () => {
    const html = withSecurityHeaders(new Response("<p>", { headers: { "Content-Type": "text/html" } }), "abc");
    expect(html.headers.get("Content-Security-Policy")).toContain("script-src 'nonce-abc' 'strict-dynamic'");
    expect(html.headers.get("Content-Security-Policy")).toContain("frame-ancestors 'self'");
    const json = withSecurityHeaders(Response.json({}), "abc");
    expect(json.headers.get("Content-Security-Policy")).toBe(contentSecurityPolicy(null));
    for (const res of [html, json]) {
      expect(res.headers.get("X-Content-Type-Options")).toBe("nosniff");
      expect(res.headers.get("Strict-Transport-Security")).toMatch(/max-age=\d+/);
      expect(res.headers.get("Referrer-Policy")).toBe("strict-origin-when-cross-origin");
    }
    expect(await html.text()).toBe("<p>");
  });

  it("let a page's forms lead to ORCID's sign-in only when it is configured", () => {
    const page = (origin?: string) =>
      withSecurityHeaders(new Response("<p>", { headers: { "Content-Type": "text/html" } }), "abc", origin).headers.get(
        "Content-Security-Policy",
      );
    expect(page()).toContain("form-action 'self';");
    expect(page("https://orcid.org")).toContain("form-action 'self' https://orcid.org;");
  });
});

describe("cross-site writes", () => {
  const post = (headers: Record<string, string>) => new Request("https://app.test/shell/locale", { method: "POST", headers });
  it.each([
    [{ "Sec-Fetch-Site": "cross-site" }, true],
    [{ "Sec-Fetch-Site": "same-site" }, true],
    [{ "Sec-Fetch-Site": "same-origin" }, false],
    [{ Origin: "https://evil.example" }, true],
    [{ Origin: "https://app.test" }, false],
    [{}, false],
  ])("a POST with %o is refused: %s", (headers, refused) => {
    expect(isCrossSiteWrite(post(headers))).toBe(refused);
  });

  it("never refuses a GET", () => {
    expect(isCrossSiteWrite(new Request("https://app.test/", { headers: { "Sec-Fetch-Site": "cross-site" } }))).toBe(false);
  });
});
