import { expect, signIn, test } from "./fixtures";

test("a member sees their credit score with its full breakdown, and the ranking of everyone", async ({ page }) => {
  await signIn(page);
  await page.goto("/personal/ranking");
  const rows = page.getByTestId("breakdown").locator("tbody tr[data-input]");
  await expect(rows).toHaveCount(9);
  await expect(rows.filter({ hasText: "Documents uploaded" })).toContainText("× 5");
  // The total row equals the sum of the products shown.
  const products = (await rows.locator("td:last-child").allTextContents()).map(Number);
  const score = Number(await page.getByTestId("score").textContent());
  expect(score).toBeCloseTo(
    products.reduce((a, b) => a + b, 0),
    2,
  );

  await page.getByRole("link", { name: /^Rank \d+$/ }).click();
  await expect(page).toHaveURL(/\/home\/rankingList$/);
  await expect(page.getByTestId("ranking")).toContainText("Aiko Tanaka");
  await expect(page).toHaveTitle("Ranking list - Research Commons");
});
