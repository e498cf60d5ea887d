import AxeBuilder from "@axe-core/playwright";
import type { Browser, Page, TestInfo } from "@playwright/test";
import { expect, signIn, signUpAndIn, test } from "./fixtures";
import { hasJs, ready } from "./helpers";

// An accessibility engine nobody here wrote (axe-core) checks every kind of page, with JavaScript
// on and off, against WCAG 2.2 A and AA: no violations at all.

const PUBLIC_PAGES = ["/login", "/signup", "/forgetPassword", "/no-such-page"];
const MEMBER_PAGES = [
  "/home",
  "/discovery",
  "/retrieval?q=water",
  "/retrieval/detail?id=1",
  "/retrieval/detail?id=2",
  "/message",
  "/upload",
  "/liveStreaming",
  "/liveStreaming?schedule",
  "/personal",
  "/personal/Setting",
  "/personal/notifications",
  "/home/rankingList",
  "/personal/ranking",
];

/**
 * The page's violations. axe runs in the page, so without JavaScript it checks the page as the
 * server sent it (its HTML, scripts removed) in a browser that can run axe itself.
 */
async function violations(page: Page, info: TestInfo, browser: Browser) {
  let checked = page;
  if (!hasJs(info)) {
    const html = (await page.content()).replace(/<script\b[\s\S]*?<\/script>/g, "");
    checked = await (await browser.newContext({ javaScriptEnabled: true })).newPage();
    await checked.setContent(html);
  }
  const { violations } = await new AxeBuilder({ page: checked })
    .withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"])
    .analyze();
  return violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`);
}

for (const path of PUBLIC_PAGES) {
  test(`no accessibility violations on ${path}`, async ({ page, browser }, info) => {
    await page.goto(path);
    if (path !== "/no-such-page") await ready(page, info);
    expect(await violations(page, info, browser)).toEqual([]);
  });
}

for (const path of MEMBER_PAGES) {
  test(`no accessibility violations on ${path} (signed in)`, async ({ page, browser }, info) => {
    const member = await signIn(page);
    if (path === "/personal/notifications") {
      // Something unread, so the list shows its unread style too.
      const fan = await (await browser.newContext()).newPage();
      const { token } = await signUpAndIn(fan, "Fan");
      await fan.request.post(`/api/users/${member.user.id}/follow`, { headers: { Authorization: `Bearer ${token}` } });
    }
    await page.goto(path);
    await ready(page, info);
    expect(await violations(page, info, browser)).toEqual([]);
  });
}

// The browser renders with its own small translator (app/lib/translate.ts), the server with i18next:
// any difference would show as a hydration error here.
test("every page hydrates without an error in each language", async ({ page, context }, info) => {
  test.skip(!hasJs(info), "hydration is JavaScript");
  // Every member page three times over in one test: a busy machine needs more than the default 30 s.
  test.setTimeout(180_000);
  const errors: string[] = [];
  page.on("console", (message) => {
    if (message.type() === "error") errors.push(`${page.url()}: ${message.text()}`);
  });
  page.on("pageerror", (error) => errors.push(`${page.url()}: ${error.message}`));
  await signIn(page);
  for (const language of ["ja", "zh", "en"]) {
    await context.addCookies([{ name: "language", value: language, url: info.project.use.baseURL ?? "" }]);
    for (const path of MEMBER_PAGES) {
      await page.goto(path);
      await ready(page, info);
    }
  }
  expect(errors).toEqual([]);
});
