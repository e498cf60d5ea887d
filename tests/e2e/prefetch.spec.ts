import type { Page } from "@playwright/test";
import { FULL_CHROMIUM } from "../../playwright.config";
import { expect, signIn, test } from "./fixtures";
import { interactive, JS_ONLY, recorded } from "./helpers";

// Prefetching on intent (Speculation Rules, decision 0046), in the full Chromium, whose prefetching
// it is: a link the pointer rests on is fetched ahead; opened, the page comes from that fetch, and
// the shell asks for it once more as a visit (the prefetch itself recorded nothing: no tab, no view).
test.use({ launchOptions: FULL_CHROMIUM });

/** Signs in on Home and rests the pointer on an item's link until the browser has fetched it ahead. */
async function fetchedAhead(page: Page) {
  await signIn(page);
  await page.goto("/home");
  await interactive(page);
  // As for a returning member, the service worker already controls the page (it taking control
  // between the prefetch and the click would send the click past what was fetched ahead).
  await page.evaluate(async () => {
    await navigator.serviceWorker.ready;
  });
  await page.reload();
  await interactive(page);
  await expect.poll(() => page.evaluate(() => navigator.serviceWorker.controller !== null)).toBe(true);
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("Preload.enable");
  const link = page.locator("main a[href^='/retrieval/detail']").first();
  const href = (await link.getAttribute("href")) ?? "";
  const ready = new Promise<void>((resolve) =>
    cdp.on("Preload.prefetchStatusUpdated", (event) => {
      if (event.prefetchUrl.endsWith(href) && event.status === "Ready") resolve();
    }),
  );
  await link.hover();
  await ready;
  return { link, href };
}

const navigationOf = (page: Page) =>
  page.evaluate(() => {
    const entry = performance.getEntriesByType("navigation")[0] as PerformanceNavigationTiming & { deliveryType?: string };
    return { type: entry.type, deliveryType: entry.deliveryType };
  });

const tabs = async (page: Page) => decodeURIComponent((await page.context().cookies()).find((c) => c.name === "tagsView")?.value ?? "");

test.describe("prefetching on intent", JS_ONLY, () => {
  test("a link the pointer rests on is fetched ahead; opened, the page counts as a visit", async ({ page }) => {
    const { link, href } = await fetchedAhead(page);
    // Fetched ahead, not visited: the tab is not recorded.
    expect(await tabs(page)).not.toContain("/retrieval/detail");
    const visit = page.waitForResponse((response) => response.url().endsWith(href) && response.request().resourceType() === "fetch");
    await link.click();
    await interactive(page);
    expect((await navigationOf(page)).deliveryType).toBe("navigational-prefetch");
    expect((await visit).status()).toBe(200);
    await recorded(page, "/retrieval/detail");
  });

  test("a page fetched ahead longer ago than it may be shown is made again when opened", async ({ page }) => {
    const { link, href } = await fetchedAhead(page);
    // The visit's answer says a minute has passed since the page was made (the server's clock, not a wait).
    await page.route(`**${href}`, async (route) => {
      const answer = await route.fetch();
      await route.fulfill({ response: answer, headers: { ...answer.headers(), date: new Date(Date.now() + 60_000).toUTCString() } });
    });
    await link.click();
    // (While the page is being made again, it has no navigation to read: asked again.)
    await expect.poll(async () => (await navigationOf(page).catch(() => null))?.type).toBe("reload");
    await interactive(page);
  });
});
