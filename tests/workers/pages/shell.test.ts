import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { currentSession } from "~/.server/accounts/accounts";
import { handleApi } from "~/api/router";
import * as root from "~/root";
import * as forgetPassword from "~/routes/forget-password";
import * as login from "~/routes/login";
import * as logout from "~/routes/logout";
import * as notFound from "~/routes/not-found";
import * as locale from "~/routes/shell.locale";
import * as sidebar from "~/routes/shell.sidebar";
import * as size from "~/routes/shell.size";
import * as tags from "~/routes/shell.tags";
import * as signup from "~/routes/signup-form";
import { mailedCode, newMember, outboxFor, testCaller, uniqueEmail } from "../helpers";
import { callRoute, type PageAnswer, sessionFor } from "../route";
import { account, elsewhere, type Reply as FormReply, flashOf, PASSWORD } from "./page-helpers";

// The shell's form actions (sidebar, language, tabs) and the public account pages (login, sign-up,
// password reset, logout): what each answers and stores. The forms themselves stay in tests/e2e.

/** Public pages sit outside the members' layout; each test asks from an address of its own (rate limits). */
const outside = () => ({ inLayout: false, headers: elsewhere() });
type Reply = { result: FormReply; notice: string | null };

const languageOf = (id: number) => env.DB.prepare("SELECT language FROM users WHERE id = ?").bind(id).first<string>("language");

describe("/shell/sidebar", () => {
  it("remembers the sidebar's state for a year, readable by scripts, and goes back where the form was", async () => {
    const closed = await callRoute(sidebar, { path: "/shell/sidebar", form: { open: "0", redirectTo: "/discovery?x=1" }, ...outside() });
    expect([closed.status, closed.location]).toEqual([303, "/discovery?x=1"]);
    expect(closed.cookies.sidebarStatus).toBe("0");
    const line = closed.headers.getSetCookie().find((c) => c.startsWith("sidebarStatus="));
    expect(line).toContain(`Max-Age=${60 * 60 * 24 * 365}`);
    expect(line).not.toContain("HttpOnly");
    const opened = await callRoute(sidebar, { path: "/shell/sidebar", form: { open: "1", redirectTo: "/home" }, ...outside() });
    expect(opened.cookies.sidebarStatus).toBe("1");
  });

  it("opens the mobile menu for one view and closes it; anything else sets nothing", async () => {
    const open = await callRoute(sidebar, { path: "/shell/sidebar", form: { mobile: "open", redirectTo: "/home" }, ...outside() });
    expect(open.cookies).toEqual({ sidebarMobile: "1" });
    expect(open.headers.getSetCookie()[0]).toContain("Max-Age=60");
    const close = await callRoute(sidebar, { path: "/shell/sidebar", form: { mobile: "close", redirectTo: "/home" }, ...outside() });
    expect(close.cookies).toEqual({ sidebarMobile: "" });
    const neither = await callRoute(sidebar, { path: "/shell/sidebar", form: { open: "maybe", redirectTo: "/home" }, ...outside() });
    expect([neither.status, neither.cookies]).toEqual([303, {}]);
  });

  it("never sends the browser to another site", async () => {
    for (const redirectTo of ["https://evil.example/", "//evil.example", "/\\evil.example", ""]) {
      const answer = await callRoute(sidebar, { path: "/shell/sidebar", form: { open: "0", redirectTo }, ...outside() });
      expect(answer.location, redirectTo).toBe("/home");
    }
  });
});

describe("/shell/size", () => {
  it("keeps small, medium or large in a cookie for a year that every page's root reads; anything else changes nothing", async () => {
    const answer = await callRoute(size, { path: "/shell/size", form: { size: "large", redirectTo: "/discovery?x=1" }, ...outside() });
    expect([answer.status, answer.location, answer.cookies.size]).toEqual([303, "/discovery?x=1", "large"]);
    expect(answer.headers.getSetCookie().find((c) => c.startsWith("size="))).toContain(`Max-Age=${60 * 60 * 24 * 365}`);
    const read = async (cookie: string) =>
      (await callRoute<{ size: string }>(root, { path: "/login", inLayout: false, headers: { ...elsewhere(), Cookie: cookie } })).data
        ?.size;
    expect([await read("size=large"), await read("size=small"), await read("size=huge"), await read("")]).toEqual([
      "large",
      "small",
      "medium",
      "medium",
    ]);
    const wrong = await callRoute(size, { path: "/shell/size", form: { size: "huge", redirectTo: "https://evil.example/" }, ...outside() });
    expect([wrong.status, wrong.location, wrong.cookies.size]).toEqual([303, "/home", undefined]);
  });
});

describe("/shell/locale", () => {
  it("keeps the choice in a cookie, says so, and goes back to the page", async () => {
    const answer = await callRoute(locale, { path: "/shell/locale", form: { lang: "ja", redirectTo: "/discovery" }, ...outside() });
    expect([answer.status, answer.location]).toEqual([303, "/discovery"]);
    expect(answer.cookies.language).toBe("ja");
    expect(flashOf(answer)).toMatchObject({ kind: "success", key: "notify.switchLanguageSuccess" });
  });

  it("saves a signed-in member's choice with the account", async () => {
    const me = await newMember("Polyglot");
    const token = await sessionFor(me);
    await callRoute(locale, { path: "/shell/locale", token, form: { lang: "zh", redirectTo: "/home" }, ...outside() });
    expect(await languageOf(me)).toBe("zh");
  });

  it("refuses a language it does not have with a notice, and changes nothing", async () => {
    const me = await newMember("Stays");
    const token = await sessionFor(me);
    const before = await languageOf(me);
    const answer = await callRoute(locale, { path: "/shell/locale", token, form: { lang: "fr", redirectTo: "/home?tab=1" }, ...outside() });
    expect([answer.status, answer.location]).toEqual([303, "/home?tab=1"]);
    expect(flashOf(answer)).toMatchObject({ kind: "error", key: "notify.requestFailed" });
    expect(answer.cookies.language).toBeUndefined();
    expect(await languageOf(me)).toBe(before);
    const away = await callRoute(locale, {
      path: "/shell/locale",
      form: { lang: "en", redirectTo: "https://evil.example/" },
      ...outside(),
    });
    expect(away.location).toBe("/home");
  });
});

describe("/shell/tags", () => {
  const views = (...paths: string[]) => ({ tagsView: encodeURIComponent(JSON.stringify(paths)) });
  const kept = (answer: PageAnswer) => JSON.parse(answer.cookies.tagsView ?? "[]") as string[];

  it("closes another tab and stays; closing the current one goes to the last tab left", async () => {
    const cookies = views("/home", "/discovery", "/upload", "/retrieval?q=x");
    const other = await callRoute(tags, {
      path: "/shell/tags",
      cookies,
      form: { close: "/discovery", current: "/retrieval?q=x" },
      ...outside(),
    });
    expect([other.status, other.location]).toEqual([303, "/retrieval?q=x"]);
    expect(kept(other)).toEqual(["/home", "/upload", "/retrieval?q=x"]);
    const current = await callRoute(tags, {
      path: "/shell/tags",
      cookies,
      form: { close: "/retrieval", current: "/retrieval?q=x" },
      ...outside(),
    });
    expect(current.location).toBe("/upload");
    expect(kept(current)).toEqual(["/home", "/discovery", "/upload"]);
  });

  it("close others and close all keep the affixed Home tab, which cannot be closed", async () => {
    const cookies = views("/home", "/discovery", "/upload", "/message");
    const others = await callRoute(tags, {
      path: "/shell/tags",
      cookies,
      form: { closeOthers: "/message", current: "/message" },
      ...outside(),
    });
    expect([others.location, kept(others)]).toEqual(["/message", ["/home", "/message"]]);
    const all = await callRoute(tags, { path: "/shell/tags", cookies, form: { closeAll: "1", current: "/message" }, ...outside() });
    expect([all.location, kept(all)]).toEqual(["/home", ["/home"]]);
    const home = await callRoute(tags, { path: "/shell/tags", cookies, form: { close: "/home", current: "/home" }, ...outside() });
    expect([home.location, kept(home)]).toEqual(["/home", ["/home", "/discovery", "/upload", "/message"]]);
  });
});

describe("/logout", () => {
  it("asks a member to confirm, and sends a visitor to the login", async () => {
    const token = await sessionFor(await newMember("Leaving"));
    expect((await callRoute(logout, { path: "/logout", token, ...outside() })).status).toBe(200);
    const visitor = await callRoute(logout, { path: "/logout", ...outside() });
    expect([visitor.status, visitor.location]).toEqual([302, "/login"]);
  });

  it("ends the session, clears its cookie and says so", async () => {
    const token = await sessionFor(await newMember("Leaving"));
    const answer = await callRoute(logout, { path: "/logout", token, form: {}, ...outside() });
    expect([answer.status, answer.location]).toEqual([303, "/login"]);
    expect(answer.cookies.token).toBe("");
    expect(flashOf(answer)).toMatchObject({ kind: "info", key: "notify.loggedOut" });
    expect((await currentSession(token, Date.now())).status).toBe("none");
  });
});

describe("an unknown path", () => {
  it("sends a visitor without a session to the login with the full path and query, and shows a member the 404", async () => {
    const visitor = await callRoute(notFound, { path: "/no/such/page?x=1&y=%C3%A9", ...outside() });
    expect([visitor.status, visitor.location]).toEqual([302, `/login?redirect=${encodeURIComponent("/no/such/page?x=1&y=%C3%A9")}`]);
    expect(flashOf(visitor)).toMatchObject({ kind: "info", key: "notify.loginRequired" });
    const token = await sessionFor(await newMember("Lost"));
    expect((await callRoute(notFound, { path: "/no/such/page?x=1", token, ...outside() })).status).toBe(404);
  });

  it("answers a missing file, asset or API address 404, and never sends the login to another site", async () => {
    for (const path of [
      "/favicon.ico",
      "/robots.txt",
      "/assets/gone-1a2b.js",
      "/files/1/nothing",
      "/api/no-such-call",
      "/.//evil.example/x",
    ]) {
      const answer = await callRoute(notFound, { path, ...outside() });
      expect([answer.status, answer.location], path).toEqual([404, null]);
    }
  });
});

describe("/login", () => {
  it("sends a signed-in member on to /, and shows the form to a visitor", async () => {
    const token = await sessionFor(await newMember("Already"));
    const signedIn = await callRoute(login, { path: "/login", token, ...outside() });
    expect([signedIn.status, signedIn.location]).toEqual([302, "/"]);
    expect((await callRoute(login, { path: "/login", ...outside() })).status).toBe(200);
  });

  it("says the session expired for as long as the spec's point=401 cookie is there, and signing in ends it", async () => {
    expect((await callRoute(login, { path: "/login", ...outside() })).data).toEqual({ expired: false, orcid: true });
    const shown = await callRoute(login, { path: "/login?redirect=%2Fhome", cookies: { point: "401" }, ...outside() });
    expect(shown.data).toEqual({ expired: true, orcid: true });
    const { email } = await account();
    const signedIn = await callRoute(login, {
      path: "/login",
      form: { email, password: PASSWORD },
      cookies: { point: "401" },
      ...outside(),
    });
    expect(signedIn.status).toBe(303);
    expect(signedIn.headers.getSetCookie()).toContain("point=; Path=/; SameSite=Lax; Max-Age=0");
  });

  it("refuses empty and malformed fields with 400 and each field's message, and never sends the password back", async () => {
    const empty = await callRoute<Reply>(login, { path: "/login", form: {}, ...outside() });
    expect(empty.status).toBe(400);
    expect(empty.data.result.error).toMatchObject({ email: ["validation.emailEmpty"], password: ["validation.passwordEmpty"] });
    const malformed = await callRoute<Reply>(login, { path: "/login", form: { email: "not-an-email", password: "x" }, ...outside() });
    expect(malformed.status).toBe(400);
    expect(malformed.data.result.error?.email).toEqual(["validation.emailFormat"]);
    expect(malformed.data.result.initialValue).toEqual({ email: "not-an-email" });
    expect(malformed.cookies.token).toBeUndefined();
  });

  it("answers wrong credentials with one message for a known and an unknown email, keeping what was typed", async () => {
    const { email } = await account();
    for (const address of [email, uniqueEmail("nobody")]) {
      const answer = await callRoute<Reply>(login, {
        path: "/login",
        form: { email: address, password: "not the password" },
        ...outside(),
      });
      expect(answer.status).toBe(401);
      expect(answer.data.result.error).toEqual({ "": ["validation.invalidCredentials"] });
      expect(answer.data.result.initialValue).toEqual({ email: address });
      expect(answer.cookies.token).toBeUndefined();
    }
  });

  it("signs in and lands on the page asked for, never on another site", async () => {
    const { email } = await account();
    const deep = await callRoute(login, {
      path: "/login",
      form: { email, password: PASSWORD, redirect: "/retrieval/detail?id=42&tab=comments" },
      ...outside(),
    });
    expect([deep.status, deep.location]).toEqual([303, "/retrieval/detail?id=42&tab=comments"]);
    expect((await currentSession(deep.cookies.token?.replace("Bearer ", ""), Date.now())).status).toBe("valid");
    expect(deep.cookies.language).toBe("en");
    expect(deep.cookies.device).toBeTruthy();
    const outsideTarget = await callRoute(login, {
      path: "/login",
      form: { email, password: PASSWORD, redirect: "https://evil.example/" },
      ...outside(),
    });
    expect(outsideTarget.location).toBe("/home");
  });

  // Moved from tests/e2e/auth.spec.ts ("logging in ends the session the browser held before (no session fixation)").
  it("logging in ends the session the browser held before (no session fixation)", async () => {
    const before = await account();
    const answer = await callRoute(login, {
      path: "/login",
      token: before.token,
      form: { email: before.email, password: PASSWORD, redirect: "/home" },
      ...outside(),
    });
    expect(answer.status).toBe(303);
    expect(answer.headers.getSetCookie().join("\n")).toMatch(/^token=Bearer%20[\w-]+; Path=\/; SameSite=Lax; Max-Age=43200; HttpOnly/);
    const old = await handleApi({
      ...testCaller().caller,
      request: new Request("https://app.test/api/auth/info", { headers: { Authorization: `Bearer ${before.token}` } }),
    });
    expect(((await old.json()) as { code: number }).code).toBe(4010);
  });

  it("takes the account's language into a browser that chose none, and saves a choice made before signing in", async () => {
    const { email, id } = await account();
    await env.DB.prepare("UPDATE users SET language = 'zh' WHERE id = ?").bind(id).run();
    const fresh = await callRoute(login, { path: "/login", form: { email, password: PASSWORD }, ...outside() });
    expect(fresh.cookies.language).toBe("zh");
    const chosen = await callRoute(login, {
      path: "/login",
      cookies: { language: "ja" },
      form: { email, password: PASSWORD },
      ...outside(),
    });
    expect(chosen.cookies.language).toBeUndefined();
    expect(await languageOf(id)).toBe("ja");
  });
});

describe("/signup/individual and /signup/facilitator", () => {
  it("sends a code with 'Send Success', keeping what was typed, then creates the account and signs in with a welcome", async () => {
    const email = uniqueEmail("joiner");
    const path = "/signup/individual";
    const sent = await callRoute<Reply>(signup, { path, form: { intent: "send-code", email }, ...outside() });
    expect(sent.status).toBe(200);
    expect(sent.data.notice).toBe("notify.sendSuccess");
    expect(sent.data.result.initialValue).toMatchObject({ email });
    const form = {
      intent: "register",
      accountType: "1",
      email,
      code: await mailedCode(email),
      nickName: "New Member",
      password: PASSWORD,
      confirmPassword: PASSWORD,
    };
    const made = await callRoute(signup, { path, form, ...outside() });
    expect([made.status, made.location]).toEqual([303, "/home"]);
    expect(flashOf(made)).toMatchObject({ kind: "success", key: "notify.welcome" });
    expect(made.cookies.token).toMatch(/^Bearer [\w-]+$/);
    const row = await env.DB.prepare("SELECT account_type, kind, nick_name FROM users WHERE email = ?").bind(email).first();
    expect(row).toEqual({ account_type: 1, kind: "individual", nick_name: "New Member" });
  });

  it("refuses bad fields with 400 and each field's message, and makes no account", async () => {
    const email = uniqueEmail("refused");
    const path = "/signup/facilitator";
    const answer = await callRoute<Reply>(signup, {
      path,
      form: { intent: "register", accountType: "2", email, nickName: "Org", password: PASSWORD, confirmPassword: "another long password" },
      ...outside(),
    });
    expect(answer.status).toBe(400);
    expect(answer.data.result.error).toMatchObject({
      code: ["validation.codeEmpty"],
      organisation: ["validation.fieldEmpty|field=fields.organisation"],
    });
    expect(answer.data.result.initialValue).not.toHaveProperty("password");
    const differ = await callRoute<Reply>(signup, {
      path: "/signup/individual",
      form: {
        intent: "register",
        accountType: "1",
        email,
        code: "123456",
        nickName: "N",
        password: PASSWORD,
        confirmPassword: "another long password",
      },
      ...outside(),
    });
    expect(differ.status).toBe(400);
    expect(differ.data.result.error?.confirmPassword).toEqual(["validation.passwordsDiffer"]);
    const wrongCode = await callRoute<Reply>(signup, {
      path: "/signup/individual",
      form: { intent: "register", accountType: "1", email, code: "123456", nickName: "N", password: PASSWORD, confirmPassword: PASSWORD },
      ...outside(),
    });
    expect(wrongCode.status).toBe(400);
    expect(wrongCode.data.result.error?.code).toEqual(["validation.codeInvalid"]);
    expect(await env.DB.prepare("SELECT id FROM users WHERE email = ?").bind(email).first()).toBeNull();
  });

  it("makes a facilitator account with its organisation on the facilitator's address", async () => {
    const email = uniqueEmail("fund");
    await callRoute(signup, { path: "/signup/facilitator", form: { intent: "send-code", email }, ...outside() });
    const form = {
      intent: "register",
      accountType: "2",
      email,
      code: await mailedCode(email),
      nickName: "Fund",
      organisation: "Blue Ocean Fund",
      password: PASSWORD,
      confirmPassword: PASSWORD,
    };
    expect((await callRoute(signup, { path: "/signup/facilitator", form, ...outside() })).status).toBe(303);
    const row = await env.DB.prepare("SELECT account_type, kind, organisation FROM users WHERE email = ?").bind(email).first();
    expect(row).toEqual({ account_type: 2, kind: "facilitator", organisation: "Blue Ocean Fund" });
  });

  it("sends a signed-in member on to /", async () => {
    const token = await sessionFor(await newMember("Already"));
    const answer = await callRoute(signup, { path: "/signup/individual", token, ...outside() });
    expect([answer.status, answer.location]).toEqual([302, "/"]);
  });
});

describe("/forgetPassword", () => {
  it("mails a code, resets the password, ends every session and trusts this browser", async () => {
    const me = await account();
    const sent = await callRoute<Reply>(forgetPassword, {
      path: "/forgetPassword",
      form: { intent: "send-code", email: me.email },
      ...outside(),
    });
    expect([sent.status, sent.data.notice]).toEqual([200, "notify.sendSuccess"]);
    const form = {
      intent: "reset",
      email: me.email,
      code: await mailedCode(me.email),
      password: "second password here",
      confirmPassword: "second password here",
    };
    const reset = await callRoute(forgetPassword, { path: "/forgetPassword", form, ...outside() });
    expect([reset.status, reset.location]).toEqual([303, "/login"]);
    expect(flashOf(reset)).toMatchObject({ kind: "success", key: "notify.resetPasswordSuccess" });
    expect(reset.cookies.device).toBeTruthy();
    expect((await currentSession(me.token, Date.now())).status).not.toBe("valid");
    expect((await outboxFor(me.email)).map((m) => m.subject)).toContain("Your Research Commons password was changed");
    const signedIn = await callRoute(login, { path: "/login", form: { email: me.email, password: "second password here" }, ...outside() });
    expect(signedIn.status).toBe(303);
  });

  it("refuses a wrong code and mismatched passwords with 400 beside the field, and keeps the old password", async () => {
    const me = await account();
    const base = { intent: "reset", email: me.email, password: "second password here" };
    const differ = await callRoute<Reply>(forgetPassword, {
      path: "/forgetPassword",
      form: { ...base, code: "123456", confirmPassword: "something else" },
      ...outside(),
    });
    expect(differ.status).toBe(400);
    expect(differ.data.result.error?.confirmPassword).toEqual(["validation.passwordsDiffer"]);
    const wrong = await callRoute<Reply>(forgetPassword, {
      path: "/forgetPassword",
      form: { ...base, code: "123456", confirmPassword: base.password },
      ...outside(),
    });
    expect(wrong.status).toBe(400);
    expect(wrong.data.result.error?.code).toEqual(["validation.codeInvalid"]);
    expect((await currentSession(me.token, Date.now())).status).toBe("valid");
    const old = await callRoute(login, { path: "/login", form: { email: me.email, password: PASSWORD }, ...outside() });
    expect(old.status).toBe(303);
  });
});
