import { expect, signIn, test } from "./fixtures";
import { JS_ONLY, ready } from "./helpers";

test.beforeEach(async ({ page }) => {
  await signIn(page);
});

test("the discovery feed shows the demo catalogue and filters by goal and kind", async ({ page }) => {
  await page.goto("/discovery");
  await ready(page, test.info());
  const feed = page.getByTestId("feed");
  await expect(feed.getByText("Safe drinking water in small towns")).toBeVisible();
  await expect(feed.getByText("Measuring rainfall with low-cost sensors")).toBeVisible();

  const filters = page.getByTestId("feed-filters");
  await filters.getByLabel("Goal").selectOption("13");
  await filters.getByLabel("Kind").selectOption("video");
  await filters.getByRole("button", { name: "Apply" }).click();
  await expect(page).toHaveURL(/\/discovery\?sdg=13&kind=video&sort=newest$/);
  await expect(feed.getByText("Measuring rainfall with low-cost sensors")).toBeVisible();
  await expect(feed.getByText("Safe drinking water in small towns")).toHaveCount(0);
  for (const badge of await page.getByTestId("content-card").locator("span").first().allTextContents()) expect(badge).toContain("13.");

  await feed.getByRole("link", { name: "Measuring rainfall with low-cost sensors" }).click();
  await expect(page).toHaveURL(/\/retrieval\/detail\?id=\d+$/);
  await expect(page.getByTestId("content-title")).toHaveText("Measuring rainfall with low-cost sensors");
});

test("cards' thumbnails are sized before they load, the first row at once, each the card's size", async ({ page }) => {
  // The browser's own requests for the first row: it asks by its Accept, and gets WebP.
  const thumbnailTypes: string[] = [];
  page.on("response", (response) => {
    if (/\/thumbnail\?w=/.test(response.url())) thumbnailTypes.push(response.headers()["content-type"] ?? "");
  });
  await page.goto("/discovery");
  await ready(page, test.info());
  const images = page.getByTestId("feed").locator("img");
  await expect(images.first()).toBeVisible();
  const shown = await images.evaluateAll((all) =>
    all.map((img) => ({
      width: img.getAttribute("width"),
      height: img.getAttribute("height"),
      loading: img.getAttribute("loading"),
      priority: img.getAttribute("fetchpriority"),
      src: img.getAttribute("src") ?? "",
    })),
  );
  expect(shown.length).toBeGreaterThan(1);
  for (const image of shown) expect(image).toMatchObject({ width: "400", height: "225" });
  const firstRow = Math.min(3, shown.length);
  expect(shown.slice(0, firstRow).map((image) => [image.loading, image.priority])).toEqual(Array(firstRow).fill(["eager", "high"]));
  expect(shown.slice(firstRow).every((image) => image.loading === "lazy")).toBe(true);
  expect(thumbnailTypes.length).toBeGreaterThan(0);
  expect(new Set(thumbnailTypes)).toEqual(new Set(["image/webp"]));
  // The address answers the card's size, not the upload: a 400×225 JPEG to a client that names no image type.
  const variant = await page.request.get(shown[0]?.src ?? "");
  expect(variant.headers()["content-type"]).toBe("image/jpeg");
  const bytes = await variant.body();
  const sof = bytes.findIndex((byte, at) => byte === 0xff && (bytes[at + 1] === 0xc0 || bytes[at + 1] === 0xc2));
  expect([bytes.readUInt16BE(sof + 7), bytes.readUInt16BE(sof + 5)]).toEqual([400, 225]);
});

test("no page fetches a script or its translations: its words and modules are in its HTML", async ({ page }, info) => {
  // No page hydrates (decisions 0046, 0047): a page carries its modules and the words they show.
  const fetched: string[] = [];
  page.on("request", (request) => {
    if (/\/assets\/.+\.js$|\/locales\//.test(new URL(request.url()).pathname)) fetched.push(request.url());
  });
  for (const path of ["/discovery", "/message", "/message?conversation=1"]) {
    await page.goto(path);
    await ready(page, info);
    await expect(page.locator('link[rel="preload"][as="fetch"]')).toHaveCount(0);
  }
  expect(fetched).toEqual([]);
});

test("with the network gone, a page that cannot be fetched says so in the member's language", JS_ONLY, async ({ page, context }, info) => {
  await context.addCookies([{ name: "language", value: "ja", url: info.project.use.baseURL ?? "" }]);
  await page.goto("/discovery");
  await ready(page, info);
  await page.evaluate(async () => {
    await navigator.serviceWorker.ready;
  });
  // The worker keeps what it needs once it controls the page; a reload makes it the page's.
  await page.reload();
  await ready(page, info);
  await expect.poll(() => page.evaluate(() => navigator.serviceWorker.controller !== null)).toBe(true);
  // Every move is a document load (decision 0046): the service worker answers one it cannot fetch.
  await context.setOffline(true);
  await page.goto("/home");
  await expect(page.getByTestId("offline")).toHaveText("オフラインです");
  await context.setOffline(false);
  await page.goto("/home");
  await expect(page.getByTestId("offline")).toHaveCount(0);
});
