import { env } from "cloudflare:workers";
import NAUGHTY_LIST from "big-list-of-naughty-strings/blns.json";
import { describe, expect, it } from "vitest";
import { receiveClientError } from "~/.server/web/observability/client-errors";
import { snakeKeys } from "~/api/casing";
import { handleApi } from "~/api/router";
import { CLIENT_ERROR_PATH } from "~/lib/client-errors";
import * as detail from "~/routes/content-detail/route";
import * as edit from "~/routes/edit/route";
import * as login from "~/routes/login";
import * as member from "~/routes/member/route";
import * as message from "~/routes/message";
import * as report from "~/routes/report";
import * as retrieval from "~/routes/retrieval";
import * as settings from "~/routes/settings/route";
import * as locale from "~/routes/shell.locale";
import * as tags from "~/routes/shell.tags";
import * as signup from "~/routes/signup-form";
import * as upload from "~/routes/upload";
import { pdfBytes, pngBytes } from "../fixtures/files";
import { newItem, newMember, testCaller, until } from "./helpers";
import { callRoute, ORIGIN, type PageRequest, type RouteModule, sessionFor } from "./route";

// The Big List of Naughty Strings (its npm package, untouched) through every form action and JSON
// body that takes member text: no 5xx, JSON answers that parse, redirects that stay on this site,
// and nothing stored from a request that was refused. That a page never carries a markup string
// unescaped needs the rendered page: tests/e2e/naughty-strings.spec.ts keeps that half.

const NAUGHTY: string[] = NAUGHTY_LIST;
const MARKUP = /<[a-z!/]/i;

/**
 * The API allows each member API_LIMITER's 400 calls a minute (vitest.config.ts): the strings are
 * dealt to this many members ("lanes"), each with its own item and conversation, so none reaches it.
 */
const LANES = 12;

/** What the server keeps of accepted text: trimmed and NFC, as the schemas store it. */
const kept = (text: string) => text.trim().normalize("NFC");

/** Runs `work` over the list four at a time. */
async function eachString(work: (text: string, i: number) => Promise<void>) {
  let next = 0;
  const lane = async () => {
    while (next < NAUGHTY.length) {
      const i = next++;
      await work(NAUGHTY[i] ?? "", i);
    }
  };
  await Promise.all([lane(), lane(), lane(), lane()]);
}

/** A client address of its own, so the per-address limits (sign-in, error log) never refuse a string. */
const address = () => `naughty-${crypto.randomUUID()}`;

/** Everything wrong, collected (lanes run concurrently), and asserted once at the end with the string that caused it. */
const problems: string[] = [];
/** Member calls the API's per-member limiter refused: each would be a string not tried. */
const limited: string[] = [];
const said = (where: string, text: string) => `${where} with ${JSON.stringify(text)}`;

/** A JSON API call as the worker hands it over; answers whether it was accepted (2xx). */
async function api(where: string, text: string, method: string, path: string, options: { token?: string; body?: unknown } = {}) {
  const { caller, settle } = testCaller(Date.now());
  const headers: Record<string, string> = { "Content-Type": "application/json" };
  if (options.token) headers.Authorization = `Bearer ${options.token}`;
  const request = new Request(`https://app.test/api${path}`, {
    method,
    headers,
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
  });
  let response: Response;
  try {
    response = await handleApi({ ...caller, language: "en", request });
    await settle();
  } catch (error) {
    problems.push(`${said(where, text)} threw (the worker answers 500): ${error}`);
    return { accepted: false, json: undefined };
  }
  if (response.status >= 500) problems.push(`${said(where, text)} answered ${response.status}`);
  if (response.status === 429 && options.token) limited.push(said(where, text));
  let json: unknown;
  if ((response.headers.get("Content-Type") ?? "").startsWith("application/json")) {
    try {
      json = await response.json();
    } catch {
      problems.push(`${said(where, text)} answered JSON that does not parse`);
    }
  }
  return { accepted: response.status < 300, json };
}

/** A page's loader or action through the real middleware; answers whether it was accepted (2xx or 303). */
async function page(where: string, text: string, module: RouteModule, init: PageRequest) {
  let answer: Awaited<ReturnType<typeof callRoute>>;
  try {
    answer = await callRoute(module, init);
  } catch (error) {
    problems.push(`${said(where, text)} threw (the framework answers 500): ${error}`);
    return false;
  }
  // A handler that threw answers 500 with what it threw as its data.
  if (answer.status >= 500) problems.push(`${said(where, text)} answered ${answer.status}: ${answer.data}`);
  if (answer.location !== null && new URL(answer.location, ORIGIN).origin !== ORIGIN)
    problems.push(`${said(where, text)} redirected off the site to ${answer.location}`);
  return answer.status < 300 || answer.status === 303;
}

// The thumbnail says it is over the decode bound, so no card variants are drawn from it: they cost
// image encodes per upload and prove nothing about text (thumbnails.test.ts proves them).
const files = () => ({
  file: new File([new Uint8Array(pdfBytes())], "a.pdf", { type: "application/pdf" }),
  thumbnail: new File([new Uint8Array(pngBytes(4000, 1500))], "a.png", { type: "image/png" }),
});

interface Lane {
  me: number;
  token: string;
  item: number;
  /** Where the comment form writes: the same words the API just wrote on `item` would be a repeat there. */
  formItem: number;
  conversation: number;
  accepted: { comments: number; formComments: number; messages: number };
  /** Titles the item may carry: edits race each other, so any accepted one (never a refused one). */
  titles: Set<string>;
}

async function newLane(target: number, n: number): Promise<Lane> {
  const me = await newMember(`Naughty ${n}`);
  const token = await sessionFor(me);
  // A private item of the lane's member to comment on and edit, and a conversation to write in.
  const form = {
    kind: "document",
    sdg: "4",
    title: "Naughty target",
    summary: "s",
    content: "c",
    keywords: "k",
    publicize: "0",
    ...files(),
  };
  const uploaded = await callRoute(upload, { path: "/upload", token, form });
  expect(uploaded.status).toBe(303);
  const item = Number(/id=(\d+)/.exec(uploaded.location ?? "")?.[1]);
  const started = await api("start", "", "POST", "/conversations", { token, body: { user_id: target } });
  const conversation = (started.json as { data: { conversation: { id: number } } }).data.conversation.id;
  const formItem = await newItem(me, { publicize: 0 });
  return {
    me,
    token,
    item,
    formItem,
    conversation,
    accepted: { comments: 0, formComments: 0, messages: 0 },
    titles: new Set(["Naughty target"]),
  };
}

const profile = {
  nickName: "Naughty",
  sex: "unsaid",
  birthday: "1990-01-01",
  country: "JP",
  nationality: "JP",
  website: "https://example.org",
  phone: "+81312345678",
};

describe("the big list of naughty strings", () => {
  it("goes through every form and JSON body without a 5xx, a broken answer or a stored refusal", { timeout: 600_000 }, async () => {
    const target = await newMember("Target");
    const lanes: Lane[] = [];
    for (let n = 0; n < LANES; n++) lanes.push(await newLane(target, n));
    const laneOf = (i: number) => lanes[i % LANES] as Lane;

    // Signing in and up, the error log, search, interests, comments, messages, reports and the shell's forms.
    await eachString(async (text, i) => {
      const lane = laneOf(i);
      const { token, item, conversation } = lane;
      await api("API login", text, "POST", "/users/login", { body: { email: text, pwd: text } });
      await api("API send code", text, "POST", "/users/send-verification-code", { body: { email: text } });
      const register = { email: "nobody@e2e.test", code: text, pwd: text, nick_name: text, account_type: 1 };
      await api("API register", text, "POST", "/users/register", { body: register });
      await api("API reset", text, "POST", "/users/reset-password", { body: { email: "nobody@e2e.test", code: text, pwd: text } });
      const guest = { "CF-Connecting-IP": address() };
      await page("login form", text, login, {
        path: "/login",
        form: { email: text, password: text, redirect: text },
        headers: guest,
        inLayout: false,
      });
      const signupForm = {
        intent: "register",
        email: "nobody@e2e.test",
        code: text,
        nickName: text,
        password: text,
        confirmPassword: text,
        accountType: "1",
      };
      await page("sign-up form", text, signup, { path: "/signup/individual", form: signupForm, headers: guest, inLayout: false });
      try {
        const clientError = new Request(`${ORIGIN}${CLIENT_ERROR_PATH}`, {
          method: "POST",
          headers: { "Content-Type": "application/json", "CF-Connecting-IP": address() },
          body: JSON.stringify({ kind: "error", message: text, page: text, stack: text }),
        });
        const status = (await receiveClientError(clientError, env.CLIENT_ERROR_LIMITER, "naughty")).status;
        if (status >= 500) problems.push(`${said("client errors", text)} answered ${status}`);
      } catch (error) {
        problems.push(`${said("client errors", text)} threw (the worker answers 500): ${error}`);
      }

      await page("retrieval page", text, retrieval, { path: `/retrieval?q=${encodeURIComponent(text)}`, token });
      await api("API search", text, "GET", `/search?q=${encodeURIComponent(text)}`, { token });
      await api("API interests", text, "POST", "/interests", { token, body: { sdg: text } });
      if ((await api("API comment", text, "POST", `/contents/${item}/comments`, { token, body: { body: text } })).accepted)
        lane.accepted.comments++;
      const detailPath = `/retrieval/detail?id=${lane.formItem}`;
      if (await page("comment form", text, detail, { path: detailPath, token, form: { intent: "comment", body: text } }))
        lane.accepted.formComments++;
      const sent = { body: text, client_id: crypto.randomUUID() };
      if ((await api("API message", text, "POST", `/conversations/${conversation}/messages`, { token, body: sent })).accepted)
        lane.accepted.messages++;
      const messageForm = { ...sent, client_id: crypto.randomUUID() };
      if (await page("message form", text, message, { path: `/message?conversation=${conversation}`, token, form: messageForm }))
        lane.accepted.messages++;
      const reported = { target_type: "member", target_id: String(target), reason: "other", details: text, back: text };
      await page("report form", text, report, { path: "/report", token, form: reported, inLayout: false });
      await page("tags bar", text, tags, { path: "/shell/tags", token, form: { close: text, current: text }, inLayout: false });
      await page("language", text, locale, { path: "/shell/locale", token, form: { lang: text, redirectTo: text }, inLayout: false });
      await page("language's way back", text, locale, {
        path: "/shell/locale",
        token,
        form: { lang: "en", redirectTo: text },
        inLayout: false,
      });
    });

    // Editing and uploading.
    await eachString(async (text, i) => {
      const lane = laneOf(i);
      const { token, item } = lane;
      const fields = { sdg: "4", title: text, summary: text, content: text, keywords: text, publicize: "0" };
      if ((await api("API edit", text, "PATCH", `/contents/${item}`, { token, body: fields })).accepted) lane.titles.add(kept(text));
      // The edit and upload forms check with the API's schema and cost an R2 write each: markup and
      // every eighth string go through them, so the run stays bounded.
      if (!MARKUP.test(text) && i % 8 !== 0) return;
      if (await page("edit form", text, edit, { path: `/retrieval/detail/edit?id=${item}`, token, form: { intent: "edit", ...fields } }))
        lane.titles.add(kept(text));
      await page("upload form", text, upload, { path: "/upload", token, form: { kind: "document", ...fields, ...files() } });
    });

    // The personal area: the profile (every string in the free-text fields, the rest valid) and tags;
    // the page forms take the markup strings and every eighth.
    await eachString(async (text, i) => {
      const { token } = laneOf(i);
      const texts = { address: text, firstName: text, middleName: text, familyName: text, academic: text, research: text, purpose: text };
      await api("API profile", text, "PUT", "/settings/profile", { token, body: snakeKeys({ ...profile, ...texts, public: true }) });
      await api("API tag", text, "POST", "/tags", { token, body: { tag: text } });
      if (!MARKUP.test(text) && i % 8 !== 0) return;
      const settingsForm = { intent: "profile", ...profile, ...texts, public: "on" };
      await page("settings form", text, settings, { path: "/personal/Setting", token, form: settingsForm });
      await page("tag form", text, member, { path: "/personal", token, form: { intent: "add-tag", tag: text } });
      await page("Space", text, member, { path: "/personal", token });
    });

    expect(problems).toEqual([]);
    expect(limited).toEqual([]);
    for (const lane of lanes) {
      const { token, item, conversation } = lane;
      const shown = await api("read item", "", "GET", `/contents/${item}`, { token });
      const title = (shown.json as { data: { content: { title: string } } }).data.content.title;
      expect(lane.titles.has(title), `lane ${lane.me}'s title ${JSON.stringify(title)} was never accepted`).toBe(true);
      const comments = await api("read comments", "", "GET", `/contents/${item}/comments`, { token });
      expect((comments.json as { data: { comments: unknown[] } }).data.comments).toHaveLength(lane.accepted.comments);
      const stored = (id: number) => env.DB.prepare("SELECT COUNT(*) AS n FROM comments WHERE content_id = ?").bind(id).first<number>("n");
      expect(await stored(item)).toBe(lane.accepted.comments);
      expect(await stored(lane.formItem)).toBe(lane.accepted.formComments);
      let messages = 0;
      for (let after = 0, more = true; more; ) {
        const history = await api("read messages", "", "GET", `/conversations/${conversation}/messages?after=${after}&limit=100`, {
          token,
        });
        const { data } = history.json as { data: { messages: { id: number }[]; has_more: boolean } };
        messages += data.messages.length;
        after = data.messages.at(-1)?.id ?? after;
        more = data.has_more;
      }
      expect(messages).toBe(lane.accepted.messages);
    }
    expect(problems).toEqual([]);
    // The uploads' text is read by queued jobs: they finish here, not in whichever file runs next.
    const owners = lanes.map((lane) => lane.me);
    const pending = env.DB.prepare(
      `SELECT COUNT(*) AS n FROM content WHERE text_state = 'pending' AND owner_id IN (${owners.map(() => "?").join(",")})`,
    ).bind(...owners);
    await until(async () => (await pending.first<number>("n")) === 0, 300_000);
    // Most strings are fine text, and they were kept.
    expect(lanes.reduce((sum, lane) => sum + lane.accepted.comments + lane.accepted.formComments, 0)).toBeGreaterThan(NAUGHTY.length);
  });
});
