import { expect, test } from "./fixtures";

// Open records are off unless the operator turns them on (decision 0049; the browser suites keep the
// default): a record's path sends a visitor to sign in, with or without JavaScript, and crawlers are
// asked to stay out. With them on, tests/workers/pages/open-records.test.ts proves the records.

test("with open records off, a record's path sends a visitor to sign in, robots.txt keeps crawlers out, and no sitemap is there", async ({
  page,
  request,
}) => {
  await page.goto("/records/1/");
  await expect(page).toHaveURL(/\/login\?redirect=%2Fretrieval%2Fdetail%3Fid%3D1$/);
  const robots = await request.get("/robots.txt");
  expect([robots.status(), await robots.text()]).toEqual([200, "User-agent: *\nDisallow: /\n"]);
  expect((await request.get("/sitemap.xml")).status()).toBe(404);
});
