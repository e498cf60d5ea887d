import type { Locator, Page } from "@playwright/test";
import { expect, signIn, test } from "./fixtures";
import { MEMBER_PAGES, ready } from "./helpers";

// Nothing of the shell is cut or hidden from 360 to 1440 px, in the three languages (Japanese and
// Chinese rendered with the CJK font the test setup installs). Screenshots at 390 and 1280 px are
// attached to the report for a person to look at; the checks below are what fails the test.

const LANGUAGES = ["en", "ja", "zh"] as const;
const WIDTHS = [360, 390, 768, 1280, 1440];
const SCREENSHOT_WIDTHS = new Set([390, 1280]);
/** Pages visited in order: the tags bar fills, and the last (deepest breadcrumb) is the active tab. */
const VISITS = ["/home", "/discovery", "/retrieval", "/message", "/upload", "/personal/ranking", "/personal/Setting"];

/** The element's content is shown whole: nothing overflows its own box. */
async function expectWhole(element: Locator, what: string) {
  const clipped = await element.evaluate((el) => el.scrollWidth > el.clientWidth + 1);
  expect(clipped, `${what} is clipped`).toBe(false);
}

async function expectApart(a: Locator, b: Locator, what: string) {
  const [one, two] = [await a.boundingBox(), await b.boundingBox()];
  if (!one || !two) throw new Error(`${what}: not laid out`);
  const overlap = one.x < two.x + two.width && two.x < one.x + one.width && one.y < two.y + two.height && two.y < one.y + one.height;
  expect(overlap, `${what} overlap`).toBe(false);
}

/** `inner` lies inside `outer`'s visible box (a tab scrolled out of its bar is hidden). */
async function expectInside(inner: Locator, outer: Locator, what: string) {
  const [box, frame] = [await inner.boundingBox(), await outer.boundingBox()];
  if (!box || !frame) throw new Error(`${what}: not laid out`);
  expect(box.x >= frame.x - 1 && box.x + box.width <= frame.x + frame.width + 1, `${what} is outside its bar`).toBe(true);
}

async function noSidewaysScroll(page: Page, what: string) {
  const [scroll, width] = await page.evaluate(() => [document.documentElement.scrollWidth, window.innerWidth]);
  expect(scroll, `${what} scrolls sideways`).toBeLessThanOrEqual(width);
}

for (const language of LANGUAGES) {
  test(`the shell fits from 360 to 1440 px in ${language}`, async ({ page, context }, info) => {
    test.slow();
    await context.addCookies([{ name: "language", value: language, url: info.project.use.baseURL ?? "" }]);
    await signIn(page);
    for (const path of VISITS) await page.goto(path);
    for (const width of WIDTHS) {
      // Loaded at each width, as a member's device would (not resized mid-animation).
      await page.setViewportSize({ width, height: 800 });
      await page.reload();
      await ready(page, info);
      const at = `${language} at ${width} px`;
      const header = page.locator("header");
      const crumb = page.getByTestId("breadcrumb");
      await expect(crumb.locator('[aria-current="page"]')).toBeVisible();
      await expectWhole(crumb.locator("ol"), `${at}: the breadcrumb`);
      await expectApart(crumb, page.getByTestId("language-switcher"), `${at}: the breadcrumb and the language switcher`);
      await expectInside(
        page.locator('[data-testid="tag"]:has([aria-current="page"])'),
        page.getByTestId("tags-bar"),
        `${at}: the active tab`,
      );
      await expectWhole(header, `${at}: the header`);
      if (width >= 1024) await expectWhole(page.getByTestId("brand"), `${at}: the brand name`);
      await noSidewaysScroll(page, at);
      if (SCREENSHOT_WIDTHS.has(width) && info.project.name === "js")
        await info.attach(`${language}-${width}.png`, { body: await page.screenshot(), contentType: "image/png" });
    }
  });
}

test("no page scrolls sideways on a 390 px phone", async ({ page }, info) => {
  test.slow();
  await page.setViewportSize({ width: 390, height: 844 });
  await signIn(page);
  for (const path of MEMBER_PAGES) {
    await page.goto(path);
    await ready(page, info);
    await noSidewaysScroll(page, path);
  }
});
