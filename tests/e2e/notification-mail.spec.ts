import type { APIRequestContext, Page } from "@playwright/test";
import { simpleParser } from "mailparser";
import { expect, signUpAndIn, test } from "./fixtures";
import { demo, fillUpload, open } from "./helpers";

// Issue 33: a member chooses how each kind of notification reaches them; a digest and an invitation
// are real mail (read back by mailparser: both parts, RFC 8058 headers, absolute links); a digest's
// unsubscribe works with one click and can be undone. JavaScript on and off.

/** The newest kept mail to `email` as a mail client gets it, parsed by a parser nobody here wrote. */
async function parsedMailTo(page: Page, email: string) {
  let href: string | null = null;
  await expect(async () => {
    await page.goto("/dev/mail");
    href = await page
      .getByTestId("mail")
      .filter({ hasText: email })
      .first()
      .getByTestId("mail-raw")
      .getAttribute("href", { timeout: 1000 });
    expect(href).toBeTruthy();
  }).toPass({ timeout: 60_000 });
  const raw = await (await page.request.get(href ?? "")).text();
  return simpleParser(raw);
}

/** The parsed mail's parts, its RFC 8058 headers as a client reads them, and every link of its HTML part. */
async function expectRealMail(mail: Awaited<ReturnType<typeof simpleParser>>, base: string) {
  expect(mail.text?.length).toBeGreaterThan(20);
  expect(typeof mail.html === "string" && mail.html.length > 20).toBe(true);
  const list = mail.headers.get("list") as { unsubscribe?: { url?: string }; "unsubscribe-post"?: { name?: string } };
  expect(list["unsubscribe-post"]?.name).toBe("List-Unsubscribe=One-Click");
  const unsubscribe = list.unsubscribe?.url ?? "";
  expect(unsubscribe.startsWith(`${base}/`)).toBe(true);
  const links = [...String(mail.html).matchAll(/href="([^"]+)"/g)].map((m) => m[1] ?? "");
  expect(links.length).toBeGreaterThan(0);
  for (const link of links) expect(new URL(link).protocol, link).toMatch(/^https?:$/);
  return unsubscribe;
}

const follow = (request: APIRequestContext, member: number, token: string) =>
  request.post(`/api/users/${member}/follow`, { headers: { Authorization: `Bearer ${token}` } });

test("a member chooses a kind's channel in Settings", async ({ page }, info) => {
  await signUpAndIn(page, "Chooser");
  await open(page, info, "/personal/Setting?section=notifications");
  const likes = page.getByTestId("notification-settings").getByLabel("Likes on my uploads");
  await expect(likes).toHaveValue("weekly");
  await likes.selectOption("mail");
  await page.getByRole("button", { name: "Save notifications" }).click();
  await expect(page.getByTestId("toast")).toBeVisible();
  await open(page, info, "/personal/Setting?section=notifications");
  await expect(page.getByTestId("notification-settings").getByLabel("Likes on my uploads")).toHaveValue("mail");
});

test("a digest is real mail, and its unsubscribe works with one click and can be undone", async ({
  page,
  browser,
  request,
  baseURL,
}, info) => {
  const me = await signUpAndIn(page, "Digest reader");
  const fan = await (await browser.newContext()).newPage();
  const them = await signUpAndIn(fan, "Digest fan");
  expect((await follow(fan.request, me.id, them.token)).ok()).toBe(true);
  const built = await page.request.post("/dev/digest", { data: { email: me.email } });
  expect(await built.json()).toEqual({ sent: "sent" });

  const mail = await parsedMailTo(page, me.email);
  expect(mail.subject).toBe("Your weekly digest from Research Commons");
  expect(mail.text).toContain("Digest fan followed you");
  const link = await expectRealMail(mail, baseURL ?? "");

  // The link, opened: it asks; the button stops the digest and offers to undo it (a page without scripts).
  await page.goto(new URL(link).pathname + new URL(link).search);
  await page.getByRole("button", { name: "Stop it" }).click();
  await expect(page.getByTestId("unsubscribe-state")).toHaveText(
    "No more mail for “In the weekly digest”. These now show in the app only:",
  );
  await expect(page.getByTestId("unsubscribe-kinds")).toContainText("New followers");
  await page.getByRole("button", { name: "Undo: mail me again" }).click();
  await expect(page.getByTestId("unsubscribe-state")).toHaveText("Mail for “In the weekly digest” is back on.");

  // A mail client's one-click post, without a session (RFC 8058), stops it.
  const oneClick = await request.post(link, { form: { "List-Unsubscribe": "One-Click" } });
  expect(oneClick.status()).toBe(200);
  await open(page, info, "/personal/Setting?section=notifications");
  await expect(page.getByTestId("notification-settings").getByLabel("New followers")).toHaveValue("app");
});

test("a meeting invitation is real mail too", async ({ page, baseURL }) => {
  const host = await signUpAndIn(page, "Inviting host");
  const outside = `invited-${Date.now()}@example.org`;
  const created = await page.request.post("/api/meetings", {
    headers: { Authorization: `Bearer ${host.token}` },
    data: {
      title: "Mail check",
      agenda: "Parts and headers",
      time_zone: "UTC",
      starts_at: `${new Date(Date.now() + 30 * 86_400_000).toISOString().slice(0, 10)}T10:00`,
      duration: 30,
      emails: outside,
    },
  });
  expect(created.ok(), await created.text()).toBe(true);
  const mail = await parsedMailTo(page, outside);
  expect(mail.subject).toBe("Invitation: Mail check");
  expect(mail.attachments.map((file) => file.contentType)).toEqual(["text/calendar"]);
  await expectRealMail(mail, baseURL ?? "");
});

test("a member follows a goal and hears of a new item in it, in the app", async ({ page, browser }, info) => {
  await signUpAndIn(page, "Goal follower");
  await open(page, info, "/discovery?sdg=6");
  await page.getByRole("button", { name: "Follow this goal: tell me of its new items" }).click();
  await expect(page.getByRole("button", { name: "Following this goal: stop" })).toBeVisible();

  const uploader = await (await browser.newContext({ javaScriptEnabled: info.project.name === "js" })).newPage();
  await signUpAndIn(uploader, "Well digger");
  const title = `Wells in dry towns ${Date.now()}`;
  await fillUpload(uploader, "Document (PDF)", title);
  await uploader.getByLabel("File", { exact: true }).setInputFiles(demo("sample-document.pdf"));
  await uploader.getByLabel("Thumbnail image").setInputFiles(demo("sample-document-thumbnail.png"));
  await uploader.getByRole("button", { name: "Upload", exact: true }).click();
  await expect(uploader).toHaveURL(/\/retrieval\/detail\?id=\d+$/);

  // Told in the background, a moment later: the list is read again until it is there.
  await expect(async () => {
    await open(page, info, "/personal/notifications");
    // (Other tests' uploads in the goal may be listed too.)
    await expect(page.getByTestId("notification").filter({ hasText: title })).toContainText(`New in a goal you follow: “${title}”`, {
      timeout: 1000,
    });
  }).toPass({ timeout: 60_000 });
});

test("a reply to a comment and a mention reach the members they name", async ({ page, browser }, info) => {
  const js = info.project.name === "js";
  const stamp = Date.now();
  const asker = await (await browser.newContext({ javaScriptEnabled: js })).newPage();
  await signUpAndIn(asker, `Asker ${stamp}`);
  const named = await (await browser.newContext({ javaScriptEnabled: js })).newPage();
  await signUpAndIn(named, `Named ${stamp}`);
  await signUpAndIn(page, `Replier ${stamp}`);

  const question = `Which towns were measured? ${stamp}`;
  await open(asker, info, "/retrieval/detail?id=1");
  await asker.getByLabel("Add a comment").fill(question);
  await asker.getByRole("button", { name: "Post" }).click();
  await expect(asker.getByTestId("comment").filter({ hasText: question })).toBeVisible();

  await open(page, info, "/retrieval/detail?id=1");
  await page.getByTestId("comment").filter({ hasText: question }).getByRole("link", { name: "Reply" }).click();
  await expect(page.getByTestId("replying-to")).toContainText(`Replying to Asker ${stamp}`);
  const answer = `Twelve, see the table; @Named ${stamp} ran the survey.`;
  if (js) {
    // With a script, names are suggested while typing a mention; picking one writes it in full.
    await page.getByLabel("Add a comment").fill(`Twelve, see the table; @Named ${String(stamp).slice(0, 6)}`);
    await page
      .getByTestId("mention-suggestions")
      .getByRole("button", { name: `@Named ${stamp}` })
      .click();
    await expect(page.getByLabel("Add a comment")).toHaveValue(`Twelve, see the table; @Named ${stamp} `);
  }
  await page.getByLabel("Add a comment").fill(answer);
  await page.getByRole("button", { name: "Post" }).click();
  // The reply shows under the question, one level in.
  await expect(
    page.getByTestId("comments").locator("li", { hasText: question }).getByTestId("comment").filter({ hasText: answer }),
  ).toBeVisible();

  await open(asker, info, "/personal/notifications");
  await expect(asker.getByTestId("notification").first()).toContainText(`Replier ${stamp} replied to your comment on`);
  await open(named, info, "/personal/notifications");
  await expect(named.getByTestId("notification").first()).toContainText(`Replier ${stamp} mentioned you on`);
});
