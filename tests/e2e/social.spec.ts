import { expect, signIn, test } from "./fixtures";
import { ready } from "./helpers";

const count = (text: string | null) => Number(/(\d+) (like|follower)/.exec(text ?? "")?.[1]);

test("like, follow the author and comment on an item, with the counts changing", async ({ page }) => {
  // Each project uses its own member and item, so the two never race on the same counts.
  const js = test.info().project.name === "js";
  await signIn(page, js ? "investor@demo.test" : "fund@demo.test");
  await page.goto(`/retrieval/detail?id=${js ? 1 : 2}`);
  await ready(page, test.info());

  const like = page.getByTestId("like");
  const before = count(await like.textContent());
  await like.click();
  await expect(like).toHaveText(new RegExp(`^Unlike · ${before + 1} likes?$`));
  await like.click();
  await expect(like).toHaveText(new RegExp(`^Like · ${before} likes?$`));

  const follow = page.getByTestId("follow");
  const followers = count(await page.getByTestId("followers").textContent());
  await follow.click();
  await expect(follow).toHaveText(/^Unfollow /);
  await expect(page.getByTestId("followers")).toHaveText(new RegExp(`${followers + 1} followers?$`));
  await follow.click();
  await expect(follow).toHaveText(/^Follow /);

  await page.getByRole("button", { name: "Post" }).click();
  await expect(page.getByTestId("error-body")).toHaveText("Input Cannot Empty");
  const text = `<script>alert(1)</script> Great study ${Date.now()}`;
  await page.getByLabel("Add a comment").fill(text);
  await page.getByRole("button", { name: "Post" }).click();
  const comment = page.getByTestId("comments").locator("li", { hasText: text });
  await expect(comment).toBeVisible();
  await comment.getByRole("button", { name: "Delete comment" }).click();
  await expect(page.getByTestId("comments").locator("li", { hasText: text })).toHaveCount(0);
});

test("a comment form submitted twice (a double click, a retried post) stores one comment", async ({ page }) => {
  await signIn(page, test.info().project.name === "js" ? "lab@demo.test" : "researcher@demo.test");
  await page.goto("/retrieval/detail?id=1");
  // The comment form's key (an owner's page has the new-version form's too).
  const commentKey = page.locator("form", { has: page.getByLabel("Add a comment") }).locator('input[name="client_key"]');
  const key = await commentKey.inputValue();
  expect(key).toMatch(/^[\w-]{8,64}$/);
  const text = `Twice ${test.info().project.name} ${Date.now()}`;
  for (let i = 0; i < 2; i++) {
    const posted = await page.request.post("/retrieval/detail?id=1", {
      form: { intent: "comment", body: text, client_key: key },
      maxRedirects: 0,
    });
    expect(posted.status()).toBe(303);
  }
  await page.goto("/retrieval/detail?id=1");
  await expect(page.getByTestId("comments").locator("li", { hasText: text })).toHaveCount(1);
  expect(await commentKey.inputValue()).not.toBe(key);
});
