import type { Page } from "@playwright/test";
import { expect, signIn, signUpAndIn, test } from "./fixtures";
import { axe, JS_ONLY, MEMBER_PAGES, ready, servedViolations } from "./helpers";

// An accessibility engine nobody here wrote (axe-core) checks every kind of page against WCAG 2.2 A
// and AA, with JavaScript (the page once interactive) and without (the page as the server sent it): no
// violations at all. Both states are checked in one visit, in the js project; each test stands
// alone (pages are only read), so the file's tests are shared out between the workers.
test.describe.configure({ mode: "parallel" });

const PUBLIC_PAGES = ["/login", "/signup", "/forgetPassword"];

/** Errors the page reports (with JavaScript: an uncaught error in its modules). */
function pageErrors(page: Page) {
  const errors: string[] = [];
  page.on("console", (message) => {
    if (message.type() === "error") errors.push(`${page.url()}: ${message.text()}`);
  });
  page.on("pageerror", (error) => errors.push(`${page.url()}: ${error.message}`));
  return errors;
}

for (const path of PUBLIC_PAGES) {
  test(`no accessibility violations on ${path}, as served and with JavaScript`, JS_ONLY, async ({ page, browser }, info) => {
    expect(await servedViolations(page, browser, path)).toEqual([]);
    await page.goto(path);
    await ready(page, info);
    expect(await axe(page)).toEqual([]);
  });
}

// A member's: a visitor without a session is sent to the login from any unknown path.
test("no accessibility violations on a member's 404 page, as served and in the browser", JS_ONLY, async ({ page, browser }) => {
  await signIn(page);
  expect(await servedViolations(page, browser, "/no-such-page")).toEqual([]);
  await page.goto("/no-such-page");
  expect(await axe(page)).toEqual([]);
});

for (const path of MEMBER_PAGES) {
  test(
    `no accessibility violations on ${path} (signed in), as served and with JavaScript, whose modules run in English without an error`,
    JS_ONLY,
    async ({ page, browser }, info) => {
      const errors = pageErrors(page);
      const member = await signIn(page);
      if (path === "/personal/notifications") {
        // Something unread, so the list shows its unread style too.
        const fan = await (await browser.newContext()).newPage();
        const { token } = await signUpAndIn(fan, "Fan");
        await fan.request.post(`/api/users/${member.id}/follow`, { headers: { Authorization: `Bearer ${token}` } });
      }
      expect(await servedViolations(page, browser, path)).toEqual([]);
      await page.goto(path);
      await ready(page, info);
      // The quoting view judged once it has drawn its page, which makes it scroll.
      if (path.includes("passage=1")) await expect(page.getByTestId("text-layer")).toBeAttached();
      expect(await axe(page)).toEqual([]);
      expect(errors).toEqual([]);
    },
  );
}

// No page hydrates (decision 0047): each runs its modules, which read their words from the page.
// In Japanese and Chinese they must run as cleanly as in English (the tests above).
for (const language of ["ja", "zh"]) {
  test(`every member page runs its modules without an error in ${language}`, JS_ONLY, async ({ page, context }, info) => {
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
