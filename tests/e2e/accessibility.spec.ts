import AxeBuilder from "@axe-core/playwright";
import type { Browser, Page, TestInfo } from "@playwright/test";
import { expect, signIn, signUpAndIn, test } from "./fixtures";
import { hasJs, JS_ONLY, ready } from "./helpers";

// An accessibility engine nobody here wrote (axe-core) checks every kind of page, with JavaScript
// on and off, against WCAG 2.2 A and AA: no violations at all. Each test stands alone (pages are
// only read), so the file's tests are shared out between the workers.
test.describe.configure({ mode: "parallel" });

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
  const served = hasJs(info) ? null : await browser.newContext({ javaScriptEnabled: true });
  let checked = page;
  if (served) {
    const html = (await page.content()).replace(/<script\b[\s\S]*?<\/script>/g, "");
    checked = await served.newPage();
    await checked.setContent(html);
  }
  const { violations } = await new AxeBuilder({ page: checked })
    .withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"])
    .analyze();
  await served?.close();
  return violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`);
}

/** Errors the page reports (with JavaScript, a hydration mismatch is one). */
function pageErrors(page: Page) {
  const errors: string[] = [];
  page.on("console", (message) => {
    if (message.type() === "error") errors.push(`${page.url()}: ${message.text()}`);
  });
  page.on("pageerror", (error) => errors.push(`${page.url()}: ${error.message}`));
  return errors;
}

for (const path of PUBLIC_PAGES) {
  test(`no accessibility violations on ${path}`, async ({ page, browser }, info) => {
    await page.goto(path);
    if (path !== "/no-such-page") await ready(page, info);
    expect(await violations(page, info, browser)).toEqual([]);
  });
}

for (const path of MEMBER_PAGES) {
  test(`no accessibility violations on ${path} (signed in), and it hydrates in English without an error`, async ({
    page,
    browser,
  }, info) => {
    const errors = pageErrors(page);
    const member = await signIn(page);
    if (path === "/personal/notifications") {
      // Something unread, so the list shows its unread style too.
      const fan = await (await browser.newContext()).newPage();
      const { token } = await signUpAndIn(fan, "Fan");
      await fan.request.post(`/api/users/${member.id}/follow`, { headers: { Authorization: `Bearer ${token}` } });
    }
    await page.goto(path);
    await ready(page, info);
    expect(await violations(page, info, browser)).toEqual([]);
    // Hydration is JavaScript's: without it the page is the server's HTML, already checked above.
    if (hasJs(info)) expect(errors).toEqual([]);
  });
}

// The browser renders with its own small translator (app/lib/translate.ts), the server with i18next:
// any difference would show as a hydration error here (English: in the tests above).
for (const language of ["ja", "zh"]) {
  test(`every member page hydrates without an error in ${language}`, JS_ONLY, async ({ page, context }, info) => {
    const errors = pageErrors(page);
    await signIn(page);
    await context.addCookies([{ name: "language", value: language, url: info.project.use.baseURL ?? "" }]);
    for (const path of MEMBER_PAGES) {
      await page.goto(path);
      await ready(page, info);
    }
    expect(errors).toEqual([]);
  });
}
