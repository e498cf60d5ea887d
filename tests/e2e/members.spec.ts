import { expect, signUpAndIn, test } from "./fixtures";
import { open } from "./helpers";

test("home shows recommendations and a ranking excerpt, each linking to its full page", async ({ page }) => {
  await signUpAndIn(page, "Home Reader");
  await open(page, test.info(), "/home");
  await expect(page.getByTestId("recommended").getByTestId("content-card").first()).toBeVisible();
  await expect(page.getByTestId("ranking-excerpt").locator("li").first()).toBeVisible();
  // The list is the last recomputation and says when; the member's own score is counted now and says so (issue 30).
  await expect(page.getByTestId("ranking-computed")).toContainText("Ranking updated");
  await expect(page.getByText(/^Your credit score now: \d+\.\d\d/)).toBeVisible();
  await page.getByTestId("more-recommended").click();
  await expect(page).toHaveURL(/\/home\/recommendList$/);
  await expect(page.getByTestId("recommended").getByTestId("content-card").first()).toBeVisible();
  await open(page, test.info(), "/home");
  await page.getByTestId("more-ranking").click();
  await expect(page).toHaveURL(/\/home\/rankingList$/);
  await expect(page.getByTestId("ranking").locator("li").first()).toBeVisible();
});

test("choose interests: one must be chosen, at most five, a repeat refused, one removed", async ({ page }) => {
  await signUpAndIn(page, "Interested");
  await open(page, test.info(), "/personal");
  await expect(page.getByTestId("member-name")).toHaveText("Interested");
  const chips = page.getByTestId("interests").locator("li");
  const add = async (goal: string) => {
    await page.getByLabel("Add interest").selectOption(goal);
    await page.getByRole("button", { name: "Add interest" }).click();
  };
  // No goal chosen: refused beside the field by the server.
  await page.getByRole("button", { name: "Add interest" }).click();
  await expect(page.getByRole("alert")).toHaveText("Goal cannot be empty");
  await expect(page.getByLabel("Add interest")).toHaveAttribute("aria-invalid", "true");
  for (const [i, goal] of ["6", "13", "3", "7", "14"].entries()) {
    await add(goal);
    await expect(chips).toHaveCount(i + 1);
  }
  await add("6");
  await expect(page.getByRole("alert")).toHaveText("Repeat addition");
  await add("1");
  await expect(page.getByRole("alert")).toHaveText("You can choose at most 5 interests");
  await expect(chips).toHaveCount(5);
  await chips.filter({ hasText: "13." }).getByRole("button", { name: "Remove interest" }).click();
  await expect(chips).toHaveCount(4);
  // The refusal was about the last post; the next one clears it, with JavaScript as without.
  await expect(page.getByRole("alert")).toHaveCount(0);
  await expect(page.getByLabel("Add interest")).not.toHaveAttribute("aria-invalid", "true");
  await expect(chips.filter({ hasText: "13." })).toHaveCount(0);
});

test("from an author link to their page: profile, uploads, follow and unfollow there", async ({ page }) => {
  await signUpAndIn(page, "Page Visitor");
  await open(page, test.info(), "/retrieval/detail?id=1");
  await page.getByTestId("content-detail").getByRole("link", { name: "Aiko Tanaka" }).click();
  await expect(page).toHaveURL(/\/personal\?member=\d+$/);
  await expect(page.getByTestId("member-uploads").getByTestId("content-card").first()).toBeVisible();
  const followers = async () => Number(await page.getByTestId("count-followers").textContent());
  const before = await followers();
  await page.getByTestId("member-follow").click();
  await expect(page.getByTestId("member-follow")).toHaveText("Unfollow");
  await expect.poll(followers).toBe(before + 1);
  await expect(page.getByTestId("member-followers")).toContainText("Page Visitor");
  await page.getByTestId("member-follow").click();
  await expect(page.getByTestId("member-follow")).toHaveText("Follow");
  await expect.poll(followers).toBe(before);
});

test("a member's page is their Space: its title and breadcrumb say so, in one heading per page", async ({ page, context, baseURL }) => {
  await signUpAndIn(page, "Space Owner");
  for (const [language, space] of [
    ["en", "Space"],
    ["ja", "スペース"],
    ["zh", "空间"],
  ] as const) {
    await context.addCookies([{ name: "language", value: language, url: baseURL as string }]);
    await open(page, test.info(), "/personal");
    await expect(page.getByTestId("section-title")).toHaveText(space);
    await expect(page).toHaveTitle(new RegExp(`^${space}: Space Owner - `));
    await expect(page.locator("h1")).toHaveCount(1);
  }
});

test("profile tags: a suggestion or one's own words, up to the free level's limit, a repeat refused", async ({ page }) => {
  await signUpAndIn(page, "Tag Adder");
  await open(page, test.info(), "/personal");
  await expect(page.getByTestId("membership")).toHaveText("Membership: Free");
  const chips = page.getByTestId("tags").locator("li");
  const add = async (tag: string) => {
    await page.getByLabel("Add tag").fill(tag);
    await page.getByRole("button", { name: "Add tag" }).click();
  };
  for (const [i, tag] of ["Health", "Coral reefs", "The future"].entries()) {
    await add(tag);
    await expect(chips).toHaveCount(i + 1);
  }
  await expect(page.getByText("3 of 3 tags at your membership level (Free)")).toBeVisible();
  await add("health");
  await expect(page.getByTestId("tags").getByRole("alert")).toHaveText("Repeat addition");
  await add("Kelp forests");
  await expect(page.getByTestId("tags").getByRole("alert")).toHaveText("Your membership level allows 3 tags");
  await chips.filter({ hasText: "Coral reefs" }).getByRole("button", { name: "Remove tag" }).click();
  await expect(chips).toHaveText(["Health×", "The future×"]);
});

test("a first comment earns a reward, shown on the Space and in the points history, with the rules published", async ({ page }) => {
  await signUpAndIn(page, "Reward Earner");
  await open(page, test.info(), "/retrieval/detail?id=1");
  await page.getByLabel("Add a comment").fill("A first comment, for the milestone");
  await page.getByRole("button", { name: "Post" }).click();
  await expect(page.getByTestId("comments")).toContainText("A first comment, for the milestone");
  await open(page, test.info(), "/personal");
  await expect(page.getByTestId("rewards").locator("li").first()).toHaveText("★ First comment");
  await expect(page.getByTestId("reward-rules")).toContainText("First comment: write a comment ✓");
  await open(page, test.info(), "/personal/ranking");
  await expect(page.getByTestId("milestone")).toContainText("Milestone reached: First comment");
});
