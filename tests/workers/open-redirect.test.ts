import { describe, expect, it } from "vitest";
import * as login from "~/routes/login";
import * as redirectRoute from "~/routes/redirect";
import * as report from "~/routes/report";
import * as locale from "~/routes/shell.locale";
import * as sidebar from "~/routes/shell.sidebar";
import * as tags from "~/routes/shell.tags";
import { newMember } from "./helpers";
import { account, elsewhere, PASSWORD, signedIn } from "./pages/page-helpers";
import { callRoute, ORIGIN, type RouteModule } from "./route";

// Every parameter that says where to go next, against the spellings of "another site" that
// browsers and URL parsers turn into one (issue 30: "/.//evil.example" became "//evil.example").

const EVIL = [
  "//evil.example",
  "/.//evil.example",
  "/./\\evil.example",
  "/..//evil.example",
  "/a/..//evil.example",
  "/%2e//evil.example",
  "/.%2F/evil.example",
  "/\\evil.example",
  "/\\/evil.example",
  "/\t/evil.example",
  "/\n/evil.example",
  "/ /evil.example",
  "https://evil.example",
  "HtTpS://evil.example",
  "JaVaScRiPt:alert(1)",
  "\\\\evil.example",
  "/%09/evil.example",
  "/%5C%5Cevil.example",
  "/%2F%2Fevil.example",
];

/** The answer's Location resolves to this site, and is not the way to another. */
function staysHere(location: string | null, spelling: string) {
  expect(location, spelling).not.toBeNull();
  expect(new URL(location as string, ORIGIN).origin, `${spelling} -> ${location}`).toBe(ORIGIN);
  expect(location, spelling).not.toMatch(/^[/\\]{2}/);
}

describe("a way back that is another site", () => {
  it("is never followed by /redirect/*", async () => {
    for (const spelling of EVIL) {
      const tail = spelling.replace(/^\//, "");
      for (const param of [tail, encodeURIComponent(tail)]) {
        const { token } = await signedIn();
        const answer = await callRoute(redirectRoute as RouteModule, { path: `/redirect/${param}`, params: { "*": tail }, token });
        staysHere(answer.location, spelling);
      }
    }
  });

  it("is never followed by the forms that go back (report, sidebar, language, tabs)", async () => {
    const { token } = await signedIn();
    const target = await newMember("Target");
    for (const spelling of EVIL) {
      const asked = [
        [report, "/report", { target_type: "member", target_id: String(target), reason: "spam", details: "", back: spelling }],
        [sidebar, "/shell/sidebar", { open: "0", redirectTo: spelling }],
        [locale, "/shell/locale", { lang: "en", redirectTo: spelling }],
        [tags, "/shell/tags", { close: "/discovery", current: spelling }],
      ] as const;
      for (const [module, path, form] of asked) {
        const answer = await callRoute(module as RouteModule, { path, token, form, inLayout: false, headers: elsewhere() });
        staysHere(answer.location, `${path} ${spelling}`);
      }
    }
  });

  it("is never followed after signing in", async () => {
    const { email } = await account();
    for (const spelling of EVIL) {
      const form = { email, password: PASSWORD, redirect: spelling };
      const answer = await callRoute(login, {
        path: `/login?redirect=${encodeURIComponent(spelling)}`,
        form,
        inLayout: false,
        headers: elsewhere(),
      });
      expect(answer.status, spelling).toBe(303);
      staysHere(answer.location, spelling);
    }
  });

  it("still lets a path on this site through, query and fragment kept", async () => {
    const { token } = await signedIn();
    const answer = await callRoute(sidebar, {
      path: "/shell/sidebar",
      token,
      form: { open: "0", redirectTo: "/retrieval/./detail?id=3#c" },
      inLayout: false,
      headers: elsewhere(),
    });
    expect(answer.location).toBe("/retrieval/detail?id=3#c");
  });
});
