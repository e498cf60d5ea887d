import { expect, signIn, signUpAndIn, test } from "./fixtures";
import { ready } from "./helpers";

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

test("points earned show in the member's ledger with their reason", async ({ page }) => {
  await signUpAndIn(page, "Point Earner");
  await page.goto("/personal/ranking");
  await expect(page.getByTestId("points-ledger")).toContainText("No points yet");
  await page.goto("/retrieval/detail?id=1");
  await ready(page, test.info());
  await page.getByLabel("Add a comment").fill("A first comment worth a point");
  await page.getByRole("button", { name: "Post" }).click();
  await expect(page.getByTestId("comments")).toContainText("A first comment worth a point");
  await page.goto("/personal/ranking");
  const ledger = page.getByTestId("points-ledger");
  await expect(ledger).toContainText("1 point in the last 30 days");
  const awards = ledger.locator("li:not([data-testid=milestone])");
  await expect(awards).toHaveCount(1);
  await expect(awards).toContainText(/Comment.*\+1/);
  // The comment reached a milestone too, granted with it.
  await expect(ledger.getByTestId("milestone")).toContainText("First comment");
});
