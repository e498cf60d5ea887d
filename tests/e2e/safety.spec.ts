import type { Browser } from "@playwright/test";
import { clientIp, expect, signIn, signUpAndIn, test } from "./fixtures";
import { ready } from "./helpers";

/** The demo moderator, signed in on a browser of their own (JavaScript as the project has it). */
async function moderatorPage(browser: Browser) {
  const context = await browser.newContext({
    extraHTTPHeaders: { "CF-Connecting-IP": clientIp() },
    javaScriptEnabled: test.info().project.use.javaScriptEnabled,
  });
  const page = await context.newPage();
  await page.goto("/login");
  await signIn(page, "moderator@demo.test");
  return { context, page };
}

/** Another member, in a browser of their own. */
async function otherMember(browser: Browser, name: string) {
  const context = await browser.newContext({
    extraHTTPHeaders: { "CF-Connecting-IP": clientIp() },
    javaScriptEnabled: test.info().project.use.javaScriptEnabled,
  });
  const page = await context.newPage();
  const member = await signUpAndIn(page, name);
  return { page, member, close: () => context.close() };
}

test("a blocked member's follow and message are refused without saying why, until the blocker unblocks in Settings", async ({
  page,
  browser,
}) => {
  const info = test.info();
  const me = await signUpAndIn(page, "Blocker");
  const pest = await otherMember(browser, "Pest");

  await page.goto(`/personal?member=${pest.member.id}`);
  await ready(page, info);
  await page.getByTestId("member-block").click();
  await expect(page.getByTestId("toast")).toHaveText("Member blocked");
  await expect(page.getByTestId("blocked-note")).toBeVisible();
  await expect(page.getByTestId("member-block")).toHaveText("Unblock");

  await pest.page.goto(`/personal?member=${me.id}`);
  await ready(pest.page, info);
  await pest.page.getByTestId("member-follow").click();
  await expect(pest.page.getByTestId("toast")).toHaveText("This is not available.");
  await expect(pest.page.getByTestId("count-followers")).toHaveText("0");
  await ready(pest.page, info);
  await pest.page.getByTestId("member-message").click();
  await expect(pest.page.getByTestId("toast")).toHaveText("This is not available.");
  await expect(pest.page).toHaveURL(new RegExp(`/personal\\?member=${me.id}$`));
  // The API answers the same neutral refusal.
  const api = await pest.page.request.post("/api/conversations", {
    headers: { Authorization: `Bearer ${pest.member.token}` },
    data: { user_id: me.id },
  });
  expect(api.status()).toBe(403);
  expect((await api.json()).message).toBe("This is not available.");

  await page.goto("/personal/Setting?section=notifications");
  await ready(page, info);
  const blocked = page.getByTestId("blocked-members");
  await expect(blocked).toContainText("Pest");
  await blocked.getByRole("button", { name: "Unblock" }).click();
  await expect(page.getByTestId("toast")).toHaveText("Member unblocked");
  await expect(page.getByTestId("blocked-members")).toContainText("You have not blocked anyone.");

  await pest.page.goto(`/personal?member=${me.id}`);
  await ready(pest.page, info);
  await pest.page.getByTestId("member-follow").click();
  await expect(pest.page.getByTestId("member-follow")).toHaveText("Unfollow");
  await pest.close();
});

test("a reported comment reaches the moderation queue; a moderator hides it; members get /401 with 403 there", async ({
  page,
  browser,
}) => {
  const info = test.info();
  const text = `Cheap pills at example dot com ${Date.now()}`;
  const spammer = await otherMember(browser, "Spammer");
  const posted = await spammer.page.request.post("/api/contents/1/comments", {
    headers: { Authorization: `Bearer ${spammer.member.token}` },
    data: { body: text },
  });
  expect(posted.status()).toBe(201);
  await spammer.close();

  await signUpAndIn(page, "Reporter");
  await page.goto("/retrieval/detail?id=1");
  await ready(page, info);
  const comment = page.getByTestId("comments").locator("li", { hasText: text });
  await comment.locator("summary", { hasText: "Report" }).click();
  await comment.getByLabel("Reason").selectOption({ label: "Spam or advertising" });
  await comment.getByLabel("Details (optional)").fill("Advertising, not research");
  await comment.getByRole("button", { name: "Send report" }).click();
  await expect(page.getByTestId("toast")).toHaveText("Thank you. A moderator will look at your report.");

  // Not a moderator: no menu entry, and the page is the /401 page with status 403.
  await expect(page.getByRole("link", { name: "Moderation" })).toHaveCount(0);
  const refused = await page.goto("/moderation");
  expect(refused?.status()).toBe(403);
  await expect(page).toHaveTitle(/No permission/);

  const { context: moderator, page: mod } = await moderatorPage(browser);
  await mod.goto("/home");
  await ready(mod, info);
  await mod.getByRole("link", { name: "Moderation" }).first().click();
  await expect(mod).toHaveURL(/\/moderation$/);
  await expect(mod).toHaveTitle("Moderation - Research Commons");
  await ready(mod, info);
  const report = mod.getByTestId("reports").locator("li", { hasText: text });
  await expect(report).toContainText("Spam or advertising");
  await expect(report).toContainText("Advertising, not research");
  await report.getByRole("button", { name: "Hide" }).click();
  await expect(mod.getByTestId("toast")).toHaveText("Decision recorded");
  await expect(mod.getByTestId("reports").locator("li", { hasText: text })).toHaveCount(0);
  await expect(mod.getByTestId("hidden")).toContainText(text);
  await moderator.close();

  await page.goto("/retrieval/detail?id=1");
  await expect(page.getByTestId("comments").locator("li", { hasText: text })).toHaveCount(0);
});

test("a member suspended from the queue cannot sign in and is told why; lifting it lets them in", async ({ page, browser }) => {
  const info = test.info();
  const name = `Suspect ${info.project.name} ${Date.now()}`;
  const suspect = await otherMember(browser, name);
  await suspect.close();
  await signUpAndIn(page, "Witness");
  await page.goto(`/personal?member=${suspect.member.id}`);
  await ready(page, info);
  await page.getByTestId(`report-member-${suspect.member.id}`).locator("summary").click();
  await page.getByLabel("Reason").selectOption({ label: "Harassment or hate" });
  await page.getByRole("button", { name: "Send report" }).click();
  await expect(page.getByTestId("toast")).toHaveText("Thank you. A moderator will look at your report.");

  const { context: moderator, page: mod } = await moderatorPage(browser);
  await mod.goto("/moderation");
  await ready(mod, info);
  await mod.getByTestId("reports").locator("li", { hasText: name }).getByRole("button", { name: "Suspend the author" }).click();
  await expect(mod.getByTestId("toast")).toHaveText("Decision recorded");

  const again = await browser.newContext({
    extraHTTPHeaders: { "CF-Connecting-IP": clientIp() },
    javaScriptEnabled: info.project.use.javaScriptEnabled,
  });
  const login = await again.newPage();
  await login.goto("/login");
  await ready(login, info);
  await login.getByLabel("Email").fill(suspect.member.email);
  await login.getByLabel("Password").fill("research-demo-2026");
  await login.getByRole("button", { name: "Log in" }).click();
  await expect(login.getByTestId("form-error")).toHaveText(
    "This account is suspended (Harassment or hate). If you think this is a mistake, write to appeals@research-commons.test to appeal.",
  );

  await mod.goto("/moderation");
  await ready(mod, info);
  await mod.getByTestId("suspended").locator("li", { hasText: name }).getByRole("button", { name: "Lift the suspension" }).click();
  await expect(mod.getByTestId("toast")).toHaveText("Decision recorded");
  await moderator.close();
  await login.getByLabel("Password").fill("research-demo-2026");
  await login.getByRole("button", { name: "Log in" }).click();
  await expect(login).toHaveURL(/\/$|\/home$/);
  await again.close();
});
