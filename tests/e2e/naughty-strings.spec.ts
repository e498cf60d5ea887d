import { readFileSync } from "node:fs";
import type { APIResponse } from "@playwright/test";
import { clientIp, expect, signUpAndIn, test } from "./fixtures";

// The half of the naughty-strings run that needs the rendered page: a page never carries a markup
// string as written (React escapes it), through every request whose answer is a page that shows
// what was sent or stored. Every form and JSON body, every string, no 5xx and nothing stored from a
// refused request: tests/workers/naughty-strings.test.ts. Requests only, so it runs once (the js project).
const NAUGHTY: string[] = JSON.parse(readFileSync("node_modules/big-list-of-naughty-strings/blns.json", "utf8"));
const MARKUP = /<[a-z!/]/i;
const MARKUP_STRINGS = NAUGHTY.filter((text) => MARKUP.test(text));
const pdf = readFileSync("demo/sample-document.pdf");
const png = readFileSync("demo/sample-document-thumbnail.png");
/** Longer than a comment may be (COMMENT_MAX, 1000), so the comment form answers 400 with its page and the text kept in it. */
const TOO_LONG = "x".repeat(1001);

test.setTimeout(600_000);

/** Runs `work` over the markup strings four at a time. */
async function eachString(work: (text: string) => Promise<void>) {
  let next = 0;
  const lane = async () => {
    while (next < MARKUP_STRINGS.length) await work(MARKUP_STRINGS[next++] ?? "");
  };
  await Promise.all([lane(), lane(), lane(), lane()]);
}

/** No 5xx, and a page never carries the markup string as written; answers whether it was a page. */
async function escaped(response: APIResponse, text: string, where: string) {
  expect(response.status(), `${where} with ${JSON.stringify(text)}`).toBeLessThan(500);
  if (!(response.headers()["content-type"] ?? "").startsWith("text/html")) return false;
  expect((await response.text()).includes(text), `${where} echoed ${JSON.stringify(text)} unescaped`).toBe(false);
  return true;
}

test("a page never carries a markup string of the big list of naughty strings unescaped", async ({ page, playwright, baseURL }) => {
  await signUpAndIn(page, "Naughty");
  const form = page.request;
  const origin = { Origin: baseURL ?? "" };

  // A private item of mine to comment on.
  const upload = await form.post("/upload", {
    headers: origin,
    multipart: {
      kind: "document",
      sdg: "4",
      title: "Naughty target",
      summary: "s",
      content: "c",
      keywords: "k",
      publicize: "0",
      file: { name: "a.pdf", mimeType: "application/pdf", buffer: pdf },
      thumbnail: { name: "a.png", mimeType: "image/png", buffer: png },
    },
    maxRedirects: 0,
  });
  expect(upload.status()).toBe(303);
  const itemId = Number(/id=(\d+)/.exec(upload.headers().location ?? "")?.[1]);

  const profile = {
    nickName: "Naughty",
    sex: "unsaid",
    birthday: "1990-01-01",
    country: "JP",
    nationality: "JP",
    website: "https://example.org",
    phone: "+81312345678",
  };
  const pages: Record<string, number> = {};
  const checked = async (response: APIResponse, text: string, where: string) => {
    if (await escaped(response, text, where)) pages[where] = (pages[where] ?? 0) + 1;
  };
  await eachString(async (text) => {
    // Signed out, from an address of its own (sign-in attempts are limited per address): the refused forms show what was typed.
    const guest = await playwright.request.newContext({ baseURL, extraHTTPHeaders: { "CF-Connecting-IP": clientIp() } });
    await checked(
      await guest.post("/login", { headers: origin, form: { email: text, password: text, redirect: text }, maxRedirects: 0 }),
      text,
      "login form",
    );
    await checked(
      await guest.post("/signup/individual", {
        headers: origin,
        form: {
          intent: "register",
          email: "nobody@e2e.test",
          code: text,
          nickName: text,
          password: text,
          confirmPassword: text,
          accountType: "1",
        },
        maxRedirects: 0,
      }),
      text,
      "sign-up form",
    );
    await guest.dispose();

    await checked(await form.get(`/retrieval?q=${encodeURIComponent(text)}`), text, "retrieval page");
    const comment = await form.post(`/retrieval/detail?id=${itemId}`, {
      headers: origin,
      form: { intent: "comment", body: `${text}${TOO_LONG}` },
      maxRedirects: 0,
    });
    expect(comment.status(), `comment form with ${JSON.stringify(text)}`).toBe(400);
    await checked(comment, text, "comment form");

    // The personal area: what the settings and tag forms store (or refuse, and show again) is shown on the Space.
    const texts = { address: text, firstName: text, middleName: text, familyName: text, academic: text, research: text, purpose: text };
    await checked(
      await form.post("/personal/Setting", {
        headers: origin,
        form: { intent: "profile", ...profile, ...texts, public: "on" },
        maxRedirects: 0,
      }),
      text,
      "settings form",
    );
    await checked(
      await form.post("/personal", { headers: origin, form: { intent: "add-tag", tag: text }, maxRedirects: 0 }),
      text,
      "tag form",
    );
    await checked(await form.get("/personal"), text, "Space");
  });

  // Each page that shows what was typed was looked at (the settings form mostly redirects: the Space shows what it stored).
  for (const where of ["login form", "sign-up form", "retrieval page", "comment form", "tag form", "Space"])
    expect(pages[where] ?? 0, `${where} answered no page to look at`).toBeGreaterThan(0);
});
