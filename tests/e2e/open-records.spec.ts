import { readFileSync } from "node:fs";
import { expect, signUpAndIn, test } from "./fixtures";
import { deleteItems, downloaded, uploadOpen } from "./helpers";

// Open records (decision 0049), as a visitor who never signed in meets them, with JavaScript and
// without: the record page and its open file, a file its licence keeps for members, and the way to
// sign in for everything else. The local server allows open records; the production-like one keeps
// the default, off (tests/e2e/production). What machines read of them: harvesters.spec.ts.

const pdf = readFileSync("demo/sample-document.pdf");

const toLogin = (id: number) => new RegExp(`/login\\?redirect=%2Fretrieval%2Fdetail%3Fid%3D${id}$`);

test("a visitor reads an open record and downloads its file, a file kept for members sends them to sign in, and so does the rest", async ({
  page,
  browser,
  baseURL,
}) => {
  const origin = baseURL ?? "";
  const ownerContext = await browser.newContext();
  const owner = await ownerContext.newPage();
  await signUpAndIn(owner, "Opener");
  const open = await uploadOpen(owner.request, origin, "One solar grid for twelve villages");
  const reserved = await uploadOpen(owner.request, origin, "One solar grid, rights reserved", {
    license: "LicenseRef-All-Rights-Reserved",
  });
  const closed = await uploadOpen(owner.request, origin, "One solar grid, for members", { open_record: "0" });

  await page.goto(`/records/${open}/`);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("One solar grid for twelve villages");
  await expect(page.getByTestId("record-authors")).toContainText("Opener");
  await expect(page.getByTestId("record-authors")).toContainText("Grace Hopper");
  await expect(page.getByTestId("record-license").getByRole("link")).toHaveAttribute("rel", "license");
  // The page runs no script (its JSON-LD is data).
  expect(await page.locator("script:not([type='application/ld+json'])").count()).toBe(0);
  const file = await downloaded(page, ".pdf", () => page.getByTestId("record-file").click());
  expect(readFileSync(await file.path())).toEqual(pdf);

  await page.goto(`/records/${reserved}/`);
  await expect(page.getByTestId("record-file-members")).toBeVisible();
  await page.goto(`/records/${reserved}/${reserved}.pdf`);
  await expect(page).toHaveURL(toLogin(reserved));

  for (const path of [`/records/${closed}/`, `/records/${closed}/${closed}.pdf`, `/retrieval/detail?id=${open}`]) {
    await page.goto(path);
    await expect(page, path).toHaveURL(/\/login\?redirect=/);
  }
  await page.goto(`/records/${open}/`);
  await page.getByTestId("record-join").getByRole("link", { name: "Sign in" }).click();
  await expect(page).toHaveURL(toLogin(open));
  await deleteItems(owner.request, origin, [open, reserved, closed]);
  await ownerContext.close();
});
