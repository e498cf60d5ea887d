import { expect, signIn, test } from "./fixtures";
import { ready } from "./helpers";

test.beforeEach(async ({ page }) => {
  await signIn(page);
});

for (const word of ["filters", "飲み水", "清洁饮水"]) {
  test(`finds the demo document by a word of its content: ${word}`, async ({ page }) => {
    await page.goto("/retrieval");
    await ready(page, test.info());
    await page.getByRole("searchbox").fill(word);
    await page.getByRole("button", { name: "Search", exact: true }).click();
    await expect(page).toHaveURL(new RegExp(`q=${encodeURIComponent(word).replace(/%20/g, "\\+")}`));
    const results = page.getByTestId("search-results");
    await expect(results.getByRole("link", { name: "Safe drinking water in small towns" })).toBeVisible();
    await expect(results.locator("mark").first()).toHaveText(word === "filters" ? /filters/i : word);
    await results.getByRole("link", { name: "Safe drinking water in small towns" }).click();
    await expect(page.getByTestId("content-title")).toHaveText("Safe drinking water in small towns");
  });
}

test("members are searchable, recent searches are kept and can be cleared", async ({ page }) => {
  // A member of its own per project, so the two projects' histories never mix.
  await signIn(page, test.info().project.name === "js" ? "lab@demo.test" : "fund@demo.test");
  await page.goto("/retrieval?tab=members&q=Clean+Water");
  await expect(page.getByTestId("search-results").getByRole("link", { name: /Clean Water Lab/ })).toBeVisible();
  await page.goto("/retrieval?q=%22unclosed+AND+(");
  await expect(page.getByText('No results for “"unclosed AND (”.')).toBeVisible();
  await page.goto("/retrieval");
  await ready(page, test.info());
  const history = page.getByTestId("search-history");
  await expect(history.getByRole("link", { name: "Clean Water" })).toBeVisible();
  await history.getByRole("button", { name: "Clear" }).click();
  await expect(page.getByTestId("search-history")).toHaveCount(0);
});
