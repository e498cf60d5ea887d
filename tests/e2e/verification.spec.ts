import type { Locator, Page } from "@playwright/test";
import { pngBytes } from "../fixtures/files";
import { expect, signIn, signUpAndIn, test } from "./fixtures";
import { open, reviewVerification } from "./helpers";

/** A PNG of about 600 KB (a real ID photo is larger than a form's 256 KB: the verification has its own limit). */
const png = (name: string) => ({
  name,
  mimeType: "image/png",
  buffer: Buffer.concat([Buffer.from(pngBytes(60, 40)), Buffer.alloc(600 * 1024)]),
});

/** The reviewer sees the submission's photo. */
const photoShown = (submission: Locator) => expect(submission.getByRole("img", { name: "ID photo, front" })).toBeVisible();

async function submitPersonal(page: Page) {
  await open(page, test.info(), "/personal/verification");
  const form = page.getByTestId("verification-form");
  await form.getByLabel("Name", { exact: true }).fill("Vera Fied");
  await form.getByLabel("ID number").fill("P-1234567");
  await form.getByLabel("Address").fill("1 Harbour Road, Sydney");
  await form.getByLabel("Contact phone").fill("+61 2 9876 5432");
  await form.getByLabel("ID photo, front").setInputFiles(png("front.png"));
  await form.getByLabel("ID photo, back").setInputFiles(png("back.png"));
  await page.getByRole("button", { name: "Submit for review" }).click();
  await expect(page.getByTestId("toast")).toHaveText("Submitted. A reviewer will look at it soon.");
  await expect(page.getByTestId("verification-status")).toContainText("Pending review");
}

test("a member is verified after a rejection with a reason and a second submission; only reviewers reach the queue", async ({
  page,
  browser,
}) => {
  const me = await signUpAndIn(page, `Vera ${Date.now()}`);
  await open(page, test.info(), "/personal/verification");
  await expect(page.getByTestId("verification-status")).toContainText("Not submitted");
  await page.getByRole("button", { name: "Submit for review" }).click();
  await expect(page.getByTestId("error-name")).toHaveText("Name cannot be empty");
  await submitPersonal(page);
  const refused = await page.goto("/review");
  expect(refused?.status()).toBe(403);

  const nick = (await (await page.request.get(`/api/auth/info`, { headers: { Authorization: `Bearer ${me.token}` } })).json()).data.user
    .nick_name;
  await reviewVerification(browser, nick, { reason: "The back photo is unreadable" }, photoShown);
  await open(page, test.info(), "/personal/verification");
  await expect(page.getByTestId("verification-status")).toContainText("Rejected");
  await expect(page.getByTestId("rejection-reason")).toHaveText("Reason: The back photo is unreadable");
  await submitPersonal(page);
  await reviewVerification(browser, nick, "approve", photoShown);
  await open(page, test.info(), "/personal");
  await expect(page.getByTestId("verified")).toHaveText("✓ Verified");
  await open(page, test.info(), `/retrieval?q=${encodeURIComponent(nick)}&tab=members`);
  await expect(page.locator("li").filter({ hasText: nick }).getByTestId("verified")).toBeVisible();
});
