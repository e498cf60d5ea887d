import { readFileSync } from "node:fs";
import type { APIRequestContext, APIResponse } from "@playwright/test";
import { clientIp, expect, signUpAndIn, test } from "./fixtures";

// The Big List of Naughty Strings (its npm package, untouched) through every form and JSON body
// that takes member text: no 5xx, nothing echoed unescaped into a page, and nothing stored from a
// request that was refused. Requests only, so it runs once (in the js project).
const NAUGHTY: string[] = JSON.parse(readFileSync("node_modules/big-list-of-naughty-strings/blns.json", "utf8"));
const MARKUP = /<[a-z!/]/i;
const pdf = readFileSync("demo/sample-document.pdf");
const png = readFileSync("demo/sample-document-thumbnail.png");

test.skip(() => test.info().project.name !== "js", "requests only: once is enough");
test.setTimeout(600_000);

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

/** No 5xx; a page never carries a markup string as written (React escapes it); JSON stays JSON. */
async function answered(response: APIResponse, text: string, where: string) {
  const status = response.status();
  expect(status, `${where} with ${JSON.stringify(text)}`).toBeLessThan(500);
  const type = response.headers()["content-type"] ?? "";
  if (type.startsWith("text/html") && MARKUP.test(text)) {
    expect((await response.text()).includes(text), `${where} echoed ${JSON.stringify(text)} unescaped`).toBe(false);
  }
  if (type.startsWith("application/json")) await response.json();
  return status < 300 || status === 303;
}

test("every form and JSON body takes the big list of naughty strings without a 5xx, an unescaped echo or a stored refusal", async ({
  page,
  browser,
  playwright,
  baseURL,
}) => {
  const me = await signUpAndIn(page, "Naughty");
  const otherContext = await browser.newContext({ extraHTTPHeaders: { "CF-Connecting-IP": clientIp() } });
  const other = await signUpAndIn(await otherContext.newPage(), "Target");
  const auth = { Authorization: `Bearer ${me.token}` };
  const form = page.request;
  const origin = { Origin: baseURL ?? "" };
  const anonymous = async (): Promise<APIRequestContext> =>
    playwright.request.newContext({ baseURL, extraHTTPHeaders: { "CF-Connecting-IP": clientIp() } });

  // A private item of mine to comment on and edit, and a conversation to write in.
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
  const started = await form.post("/api/conversations", { headers: auth, data: { user_id: other.id } });
  const conversationId: number = (await started.json()).data.conversation.id;

  const accepted = { comments: 0, messages: 0 };
  await eachString(async (text) => {
    const guest = await anonymous();
    await answered(await guest.post("/api/users/login", { data: { email: text, pwd: text } }), text, "API login");
    await answered(await guest.post("/api/users/send-verification-code", { data: { email: text } }), text, "API send code");
    await answered(
      await guest.post("/api/users/register", {
        data: { email: "nobody@e2e.test", code: text, pwd: text, nick_name: text, account_type: 1 },
      }),
      text,
      "API register",
    );
    await answered(
      await guest.post("/api/users/reset-password", { data: { email: "nobody@e2e.test", code: text, pwd: text } }),
      text,
      "API reset",
    );
    await answered(
      await guest.post("/login", { headers: origin, form: { email: text, password: text, redirect: text }, maxRedirects: 0 }),
      text,
      "login form",
    );
    await answered(
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
    await answered(
      await guest.post("/errors/client", { data: { kind: "error", message: text, page: text, stack: text } }),
      text,
      "client errors",
    );
    await guest.dispose();

    await answered(await form.get(`/retrieval?q=${encodeURIComponent(text)}`), text, "retrieval page");
    await answered(await form.get(`/api/search?q=${encodeURIComponent(text)}`, { headers: auth }), text, "API search");
    await answered(await form.post("/api/interests", { headers: auth, data: { sdg: text } }), text, "API interests");
    if (await answered(await form.post(`/api/contents/${itemId}/comments`, { headers: auth, data: { body: text } }), text, "API comment"))
      accepted.comments++;
    const comment = await form.post(`/retrieval/detail?id=${itemId}`, {
      headers: origin,
      form: { intent: "comment", body: text },
      maxRedirects: 0,
    });
    if (await answered(comment, text, "comment form")) accepted.comments++;
    const message = { body: text, client_id: crypto.randomUUID() };
    if (
      await answered(
        await form.post(`/api/conversations/${conversationId}/messages`, { headers: auth, data: message }),
        text,
        "API message",
      )
    )
      accepted.messages++;
    const sent = await form.post(`/message?conversation=${conversationId}`, {
      headers: origin,
      form: { ...message, client_id: crypto.randomUUID() },
      maxRedirects: 0,
    });
    if (await answered(sent, text, "message form")) accepted.messages++;
    await answered(
      await form.post("/report", {
        headers: origin,
        form: { target_type: "member", target_id: String(other.id), reason: "other", details: text, back: text },
        maxRedirects: 0,
      }),
      text,
      "report form",
    );
    await answered(
      await form.post("/shell/tags", { headers: origin, form: { close: text, current: text }, maxRedirects: 0 }),
      text,
      "tags bar",
    );
    await answered(
      await form.post("/shell/locale", { headers: origin, form: { language: text, redirect: text }, maxRedirects: 0 }),
      text,
      "language",
    );
  });

  // Edits race each other here, so the title left must be one that was accepted (never a refused one).
  const titles = new Set(["Naughty target"]);
  await eachString(async (text, i) => {
    const fields = { sdg: "4", title: text, summary: text, content: text, keywords: text, publicize: "0" };
    if (await answered(await form.patch(`/api/contents/${itemId}`, { headers: auth, data: fields }), text, "API edit"))
      titles.add(kept(text));
    // The edit and upload forms check with the API's schema and cost an R2 write each: markup and
    // every eighth string go through them, so the run stays bounded on a busy machine.
    if (!MARKUP.test(text) && i % 8 !== 0) return;
    const edited = await form.post(`/retrieval/detail?id=${itemId}`, {
      headers: origin,
      form: { intent: "edit", ...fields },
      maxRedirects: 0,
    });
    if (await answered(edited, text, "edit form")) titles.add(kept(text));
    const uploaded = await form.post("/upload", {
      headers: origin,
      multipart: {
        kind: "document",
        ...fields,
        file: { name: "a.pdf", mimeType: "application/pdf", buffer: pdf },
        thumbnail: { name: "a.png", mimeType: "image/png", buffer: png },
      },
      maxRedirects: 0,
    });
    await answered(uploaded, text, "upload form");
  });

  // The personal area: the profile (every string in the free-text fields, the rest valid), tags and
  // the verification's fields; the page forms take the markup strings and every eighth.
  const profile = {
    nickName: "Naughty",
    sex: "unsaid",
    birthday: "1990-01-01",
    country: "JP",
    nationality: "JP",
    website: "https://example.org",
    phone: "+81312345678",
  };
  await eachString(async (text, i) => {
    const texts = { address: text, firstName: text, middleName: text, familyName: text, academic: text, research: text, purpose: text };
    await answered(
      await form.put("/api/settings/profile", { headers: auth, data: { ...profile, ...texts, public: true } }),
      text,
      "API profile",
    );
    await answered(await form.post("/api/tags", { headers: auth, data: { tag: text } }), text, "API tag");
    if (!MARKUP.test(text) && i % 8 !== 0) return;
    const settings = await form.post("/personal/Setting", {
      headers: origin,
      form: { intent: "profile", ...profile, ...texts, public: "on" },
      maxRedirects: 0,
    });
    await answered(settings, text, "settings form");
    await answered(
      await form.post("/personal", { headers: origin, form: { intent: "add-tag", tag: text }, maxRedirects: 0 }),
      text,
      "tag form",
    );
    await answered(await form.get("/personal"), text, "Space");
  });

  const item = await (await form.get(`/api/contents/${itemId}`, { headers: auth })).json();
  expect(titles.has(item.data.content.title)).toBe(true);
  const comments = await (await form.get(`/api/contents/${itemId}/comments`, { headers: auth })).json();
  expect(comments.data.comments).toHaveLength(accepted.comments);
  let messages = 0;
  for (let after = 0, more = true; more; ) {
    const page = await (await form.get(`/api/conversations/${conversationId}/messages?after=${after}&limit=100`, { headers: auth })).json();
    messages += page.data.messages.length;
    after = page.data.messages.at(-1)?.id ?? after;
    more = page.data.hasMore;
  }
  expect(messages).toBe(accepted.messages);
  expect(accepted.comments).toBeGreaterThan(NAUGHTY.length); // most strings are fine text, and they were kept
});
