import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { logout, resetPassword, sendVerificationCode } from "~/.server/accounts/accounts";
import { linkOrcid } from "~/.server/accounts/orcid";
import { findSession } from "~/.server/accounts/sessions";
import { findContent } from "~/.server/content/content";
import { translator } from "~/.server/i18n/translate";
import { attempt, Refused } from "~/.server/refused";
import { handleApi } from "~/api/router";
import * as member from "~/routes/member/route";
import * as callback from "~/routes/orcid/callback";
import * as start from "~/routes/orcid/start";
import * as orcidSettings from "~/routes/settings/orcid";
import * as settings from "~/routes/settings/route";
import * as signupForm from "~/routes/signup-form";
import { mailedCode, newItem, newOrcid, testCaller, uniqueEmail } from "./helpers";
import { account, elsewhere, flashOf } from "./pages/page-helpers";
import { callRoute } from "./route";

// Sign in with ORCID against the stand-in ORCID (scripts/fake-orcid.mjs), which vitest.config.ts
// starts on loopback and the worker reaches over the network: the whole trip, and each way it is refused.

interface Trip {
  /** What the browser keeps of the trip (its state cookie). */
  cookie: string;
  /** The callback's path and query, as ORCID sends the browser back. */
  back: string;
}

/** Presses an ORCID button, then signs in at the stand-in as `orcid`; `tamper` changes what is sent to ORCID. */
async function trip(intent: "login" | "link", orcid: string, options: { token?: string; tamper?: (query: URLSearchParams) => void } = {}) {
  const pressed = await press(intent, { token: options.token });
  expect(pressed.status).toBe(303);
  const authorize = new URL(pressed.location ?? "");
  expect(authorize.href.startsWith(env.ORCID_URL)).toBe(true);
  expect(authorize.searchParams.get("scope")).toBe("openid");
  const cookie = pressed.cookies.orcid_state ?? "";
  expect(cookie).not.toBe("");
  const query = new URLSearchParams(authorize.search);
  options.tamper?.(query);
  query.set("orcid", orcid);
  query.set("name", "Mei Lin");
  query.set("decision", "authorize");
  const signedIn = await fetch(`${authorize.origin}/oauth/authorize`, { method: "POST", body: query, redirect: "manual" });
  expect(signedIn.status).toBe(302);
  const back = new URL(signedIn.headers.get("Location") ?? "");
  return { cookie, back: back.pathname + back.search } satisfies Trip;
}

/** An ORCID button pressed, from a client address of its own unless `headers` says one (starts are limited per address). */
const press = (intent: "login" | "link", options: { token?: string; headers?: Record<string, string> } = {}) =>
  callRoute(start, {
    path: "/auth/orcid",
    form: { intent },
    token: options.token,
    headers: options.headers ?? elsewhere(),
    inLayout: false,
  });

/** ORCID's redirect arriving in the browser that holds the trip's cookie (or another one). */
const arrive = (trip: Trip, options: { token?: string; cookie?: string } = {}) =>
  callRoute(callback, { path: trip.back, cookies: { orcid_state: options.cookie ?? trip.cookie }, token: options.token, inLayout: false });

const linkedIdOf = async (id: number) =>
  (await env.DB.prepare("SELECT orcid, orcid_name FROM users WHERE id = ?")
    .bind(id)
    .first<{ orcid: string | null; orcid_name: string | null }>()) ?? null;

describe("linking an ORCID iD and signing in with it", () => {
  it("links from Settings, then signs in with ORCID to a session that logout and a password reset end", async () => {
    const member = await account();
    const orcid = newOrcid();
    const linked = await arrive(await trip("link", orcid, { token: member.token }), { token: member.token });
    expect([linked.status, linked.location, flashOf(linked)?.key]).toEqual([
      303,
      "/personal/Setting?section=account#orcid",
      "notify.orcidLinked",
    ]);
    expect(await linkedIdOf(member.id)).toEqual({ orcid, orcid_name: "Mei Lin" });
    const page = await callRoute<{ orcid: { orcid: string; hasPassword: boolean } }>(settings, {
      path: "/personal/Setting",
      token: member.token,
    });
    expect(page.data.orcid).toMatchObject({ orcid, hasPassword: true, enabled: true });

    const signIn = async () => {
      const answer = await arrive(await trip("login", orcid));
      expect([answer.status, answer.location]).toEqual([303, "/home"]);
      const token = /^Bearer (.+)$/.exec(answer.cookies.token ?? "")?.[1] ?? "";
      const session = await findSession(token, Date.now());
      expect(session.status === "valid" && session.user.id).toBe(member.id);
      return token;
    };
    const first = await signIn();
    await logout(first);
    expect((await findSession(first, Date.now())).status).toBe("none");

    const second = await signIn();
    const { caller, settle } = testCaller(Date.now());
    await sendVerificationCode(member.email, "reset", caller);
    await settle();
    await resetPassword({ email: member.email, code: await mailedCode(member.email), password: "another long walk home" }, caller);
    expect((await findSession(second, Date.now())).status).toBe("none");
  });

  it("refuses a forged state, a state used twice, a replayed code and a nonce that does not match", async () => {
    const member = await account();
    const orcid = newOrcid();
    await linkOrcid(member.id, { orcid, name: "Mei Lin" }, Date.now());
    const refusedSignIn = (answer: Awaited<ReturnType<typeof arrive>>) => {
      expect([answer.status, answer.location, flashOf(answer)?.key]).toEqual([303, "/login", "notify.orcidFailed"]);
      expect(answer.cookies.token).toBeUndefined();
    };

    // Someone else's state in this browser (login CSRF), and a state the server never issued.
    const first = await trip("login", orcid);
    refusedSignIn(await arrive(first, { cookie: "forged-state-in-this-browser" }));
    refusedSignIn(await arrive({ ...first, back: first.back.replace(/state=[^&]+/, "state=forged") }, { cookie: "forged" }));

    // The real one works once; the same answer again is refused (its code is spent at ORCID).
    const done = await arrive(await trip("login", orcid));
    expect(done.cookies.token).toMatch(/^Bearer /);
    const again = await trip("login", orcid);
    expect((await arrive(again)).cookies.token).toMatch(/^Bearer /);
    refusedSignIn(await arrive(again));

    // A spent code under a fresh state: ORCID refuses the exchange, so do we.
    const fresh = await trip("login", orcid);
    const replayed = {
      ...fresh,
      back: fresh.back.replace(/code=[^&]+/, `code=${new URLSearchParams(again.back.split("?")[1]).get("code")}`),
    };
    refusedSignIn(await arrive(replayed));

    // ORCID signed a nonce other than the one this trip was given.
    refusedSignIn(await arrive(await trip("login", orcid, { tamper: (query) => query.set("nonce", "someone-elses-nonce") })));
  });

  it("refuses an iD another account holds, and never lets two accounts link one iD at once", async () => {
    const [a, b, c] = [await account(), await account(), await account()];
    const orcid = newOrcid();
    await arrive(await trip("link", orcid, { token: a.token }), { token: a.token });
    const taken = await arrive(await trip("link", orcid, { token: b.token }), { token: b.token });
    expect([taken.location, flashOf(taken)?.key]).toEqual(["/personal/Setting?section=account#orcid", "notify.orcidTaken"]);
    expect((await linkedIdOf(b.id))?.orcid).toBeNull();

    const contested = newOrcid();
    const results = await Promise.all([b, c].map((m) => attempt(() => linkOrcid(m.id, { orcid: contested, name: "X" }, Date.now()))));
    expect(results.filter((r) => r instanceof Refused).map((r) => (r as Refused).key)).toEqual(["notify.orcidTaken"]);
    const holders = await env.DB.prepare("SELECT count(*) AS n FROM users WHERE orcid = ?").bind(contested).first<{ n: number }>();
    expect(holders?.n).toBe(1);
  });

  it("a link finished in a browser signed in as someone else links nobody", async () => {
    const [a, b] = [await account(), await account()];
    const answer = await arrive(await trip("link", newOrcid(), { token: a.token }), { token: b.token });
    expect(flashOf(answer)?.key).toBe("notify.orcidFailed");
    expect((await linkedIdOf(a.id))?.orcid).toBeNull();
    expect((await linkedIdOf(b.id))?.orcid).toBeNull();
  });

  it("signs up with an iD that has no account: type and kind chosen, email verified, no password needed", async () => {
    const orcid = newOrcid();
    const arrived = await arrive(await trip("login", orcid));
    expect([arrived.location, flashOf(arrived)?.key]).toEqual(["/signup", "notify.orcidNoAccount"]);
    const pending = arrived.cookies.orcid_signup ?? "";
    expect(pending).not.toBe("");
    const form = await callRoute<{ orcid: { orcid: string; name: string } }>(signupForm, {
      path: "/signup/individual?type=2",
      cookies: { orcid_signup: pending },
      inLayout: false,
    });
    expect(form.data.orcid).toEqual({ orcid, name: "Mei Lin" });

    const email = uniqueEmail("orcid");
    const post = (fields: Record<string, string>) =>
      callRoute(signupForm, { path: "/signup/individual", form: fields, cookies: { orcid_signup: pending }, inLayout: false });
    await post({ intent: "send-code", email });
    const made = await post({
      intent: "register",
      accountType: "2",
      email,
      code: await mailedCode(email),
      nickName: "Mei Lin",
      password: "",
      confirmPassword: "",
    });
    expect([made.status, made.location]).toEqual([303, "/home"]);
    expect(made.cookies.orcid_signup).toBe("");
    const user = await env.DB.prepare("SELECT id, account_type, orcid, password_hash FROM users WHERE email = ?")
      .bind(email)
      .first<{ id: number; account_type: number; orcid: string; password_hash: string }>();
    expect(user).toMatchObject({ account_type: 2, orcid, password_hash: "" });

    // The token is spent: the same cookie cannot make a second account.
    const other = uniqueEmail("orcid");
    await post({ intent: "send-code", email: other });
    const twice = await post({
      intent: "register",
      accountType: "1",
      email: other,
      code: await mailedCode(other),
      nickName: "Again",
      password: "",
      confirmPassword: "",
    });
    expect(twice.status).toBeGreaterThanOrEqual(400);

    // ORCID is this account's only way in: unlinking it is refused and changes nothing.
    const token = /^Bearer (.+)$/.exec(made.cookies.token ?? "")?.[1] ?? "";
    const unlink = await callRoute(orcidSettings, { path: "/personal/Setting/orcid", token, form: { intent: "unlink-orcid" } });
    expect(flashOf(unlink)?.key).toBe("notify.orcidOnlyWayIn");
    expect((await linkedIdOf(user?.id ?? 0))?.orcid).toBe(orcid);
    // And it signs in with ORCID from now on.
    expect((await arrive(await trip("login", orcid))).location).toBe("/home");
  });

  it("unlinks when the member has a password too", async () => {
    const member = await account();
    await linkOrcid(member.id, { orcid: newOrcid(), name: "Mei Lin" }, Date.now());
    const unlink = await callRoute(orcidSettings, {
      path: "/personal/Setting/orcid",
      token: member.token,
      form: { intent: "unlink-orcid" },
    });
    expect(flashOf(unlink)?.key).toBe("notify.orcidUnlinked");
    expect((await linkedIdOf(member.id))?.orcid).toBeNull();
  });

  it("a co-author listed by iD who links it finds the item on their Space and can take themselves off it", async () => {
    const [owner, coAuthor] = [await account(), await account()];
    const orcid = newOrcid();
    const item = await newItem(owner.id, { title: "Shared fieldwork" });
    await env.DB.prepare("UPDATE content SET authors = ? WHERE id = ?")
      .bind(
        JSON.stringify([
          { name: "Lee", orcid: null },
          { name: "Mei Lin", orcid },
          { name: "Ola", orcid: newOrcid() },
        ]),
        item,
      )
      .run();
    const space = () => callRoute<{ co_authored: { id: number }[] }>(member, { path: "/personal", token: coAuthor.token });
    expect((await space()).data.co_authored).toEqual([]);
    expect((await findContent(item, owner.id))?.authors[1]).toEqual({ name: "Mei Lin", orcid, verified: false });

    await arrive(await trip("link", orcid, { token: coAuthor.token }), { token: coAuthor.token });
    expect((await space()).data.co_authored.map((i) => i.id)).toEqual([item]);
    expect((await findContent(item, owner.id))?.authors[1]).toEqual({ name: "Mei Lin", orcid, verified: true });
    // Others see it on the co-author's Space too.
    const other = await callRoute<{ co_authored: { id: number }[] }>(member, {
      path: `/personal?member=${coAuthor.id}`,
      token: owner.token,
    });
    expect(other.data.co_authored.map((i) => i.id)).toEqual([item]);

    // Nobody else can take them off; they can, and the others keep their order.
    await callRoute(member, { path: "/personal", token: owner.token, form: { intent: "leave-co-authors", content: String(item) } });
    expect((await findContent(item, owner.id))?.authors).toHaveLength(3);
    const left = await callRoute(member, {
      path: "/personal",
      token: coAuthor.token,
      form: { intent: "leave-co-authors", content: String(item) },
    });
    expect(flashOf(left)?.key).toBe("notify.coAuthorRemoved");
    expect((await findContent(item, owner.id))?.authors.map((a) => a.name)).toEqual(["Lee", "Ola"]);
    expect((await space()).data.co_authored).toEqual([]);
  });

  it("the API says the linked iD, lists the record's works, and unlinks", async () => {
    const member = await account();
    const call = async (method: string, path: string) => {
      const { caller, settle } = testCaller();
      const request = new Request(`https://app.test/api${path}`, { method, headers: { Authorization: `Bearer ${member.token}` } });
      const response = await handleApi({ ...caller, request });
      await settle();
      return { status: response.status, data: ((await response.json()) as { data: Record<string, unknown> }).data };
    };
    expect((await call("GET", "/orcid/works")).status).toBe(404);
    const orcid = newOrcid();
    await linkOrcid(member.id, { orcid, name: "Mei Lin" }, Date.now());
    expect((await call("GET", "/auth/info")).data.user).toMatchObject({ orcid });
    const { data } = await call("GET", "/orcid/works");
    expect(data.works).toEqual([
      {
        put_code: 1001,
        title: "Groundwater recharge in semi-arid basins after managed aquifer recharge",
        year: 2024,
        doi: "10.5555/rc.2024.001",
      },
      { put_code: 1002, title: "都市の水安全保障と気候適応", year: 2021, doi: "10.5555/rc.2021.017" },
      { put_code: 1003, title: "Field notes on coastal mangrove restoration", year: 2019, doi: null },
    ]);
    expect((await call("DELETE", "/orcid")).status).toBe(200);
    expect((await call("GET", "/auth/info")).data.user).toMatchObject({ orcid: null });
  });

  it("says so when the member cancels at ORCID", async () => {
    const pressed = await press("login");
    const authorize = new URL(pressed.location ?? "");
    const query = new URLSearchParams(authorize.search);
    query.set("decision", "deny");
    const denied = await fetch(`${authorize.origin}/oauth/authorize`, { method: "POST", body: query, redirect: "manual" });
    const back = new URL(denied.headers.get("Location") ?? "");
    const answer = await arrive({ cookie: pressed.cookies.orcid_state ?? "", back: back.pathname + back.search });
    expect(flashOf(answer)?.key).toBe("notify.orcidDenied");
  });

  it("a callback another site sends this browser to writes nothing, and leaves the browser's own trip to finish", async () => {
    const member = await account();
    const orcid = newOrcid();
    await linkOrcid(member.id, { orcid, name: "Mei Lin" }, Date.now());
    const mine = await trip("login", orcid);
    // Someone else's finished trip (their state, their code), opened in this browser from a link.
    const theirs = await trip("login", newOrcid());
    const signups = () => env.DB.prepare("SELECT count(*) AS n FROM orcid_signups").first<number>("n");
    const before = await signups();
    const foreign = await arrive(theirs, { cookie: mine.cookie });
    expect([foreign.status, foreign.location, flashOf(foreign)?.key]).toEqual([303, "/login", "notify.orcidFailed"]);
    // No session, no sign-up under way, and the browser's own trip is not cleared...
    expect(foreign.cookies.token).toBeUndefined();
    expect(foreign.cookies.orcid_state).toBeUndefined();
    expect(await signups()).toBe(before);
    // ...so it still finishes, and spends itself then.
    const done = await arrive(mine);
    expect(done.cookies.token).toMatch(/^Bearer /);
    expect(done.cookies.orcid_state).toBe("");
  });
});

describe("starting a trip to ORCID", () => {
  it("is limited per client address, with the translated 'too many' notice", async () => {
    const headers = elsewhere();
    const pressed = [];
    // The limit is AUTH_LIMITER's (wrangler.toml); the bound only stops a broken loop.
    for (let answer = await press("login", { headers }); pressed.length < 100; answer = await press("login", { headers })) {
      pressed.push(answer);
      if (!answer.location?.startsWith(env.ORCID_URL)) break;
    }
    const refused = pressed.at(-1);
    expect(pressed.length).toBeGreaterThan(1);
    expect([refused?.status, refused?.location, refused && flashOf(refused)?.key]).toEqual([303, "/login", "validation.rateLimited"]);
    expect(refused?.cookies.orcid_state).toBeUndefined();
    expect(translator("en")("validation.rateLimited")).toBe("Too many requests. Please wait a minute and try again.");
    // Linking from Settings, from the same address, is turned back to Settings with the same notice.
    const member = await account();
    const link = await press("link", { token: member.token, headers });
    expect([link.status, link.location, flashOf(link)?.key]).toEqual([
      303,
      "/personal/Setting?section=account#orcid",
      "validation.rateLimited",
    ]);
  });

  it("writes no row: anonymous posts from many addresses leave the database's trips as they were", async () => {
    const trips = () => env.DB.prepare("SELECT count(*) AS n FROM orcid_states").first<number>("n");
    const before = await trips();
    for (let i = 0; i < 30; i++) expect((await press("login")).location?.startsWith(env.ORCID_URL)).toBe(true);
    expect(await trips()).toBe(before);
  });
});
