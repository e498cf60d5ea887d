import { expect, signIn, test } from "./fixtures";
import { ready } from "./helpers";

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
