import { expect, signUpAndIn, test } from "./fixtures";
import { ready, reviewVerification, sendOrganisationVerification } from "./helpers";

// Issue 52, JavaScript on and off: a fund's account finds its organisation in the registry of
// research organisations (the stand-in answers ROR's v2 API from a slice of its data), links it,
// and its Space links to the ROR record; a registry that fails is said so, the typed name kept. Its
// identity verification, approved by a reviewer who confirms the record, shows a badge beside it.

test("a fund picks its organisation from ROR, its Space links to the record, and its verification confirms it", async ({
  page,
  browser,
}) => {
  const nick = `Science Fund ${Date.now()}`;
  await signUpAndIn(page, nick, { account_type: 2, kind: "facilitator", organisation: "JST" });
  await page.goto("/personal/Setting?section=organisation");
  await ready(page, test.info());
  await expect(page.getByText("Name as you typed it: JST")).toBeVisible();
  await expect(page.getByText("Not linked to an organisation in ROR.")).toBeVisible();

  await page.getByLabel("Search ROR by name or acronym").fill("stand-in.fail");
  await page.getByRole("button", { name: "Search", exact: true }).click();
  await expect(page.getByTestId("ror-problem")).toHaveText(
    "The registry of organisations is not answering now. Try again later; your name as typed is kept.",
  );

  await page.getByLabel("Search ROR by name or acronym").fill("Japan Science and Technology");
  await page.getByRole("button", { name: "Search", exact: true }).click();
  const results = page.getByTestId("ror-results");
  await results.getByLabel(/^Japan Science and Technology Agency · JST · Japan$/).check();
  await results.getByRole("button", { name: "Link this organisation" }).click();
  await expect(page.getByTestId("toast")).toHaveText("Update Success");
  await expect(page.getByTestId("ror-linked").getByRole("link")).toHaveAttribute("href", "https://ror.org/00097mb19");

  await page.goto("/personal");
  await expect(page.getByTestId("member-ror")).toHaveText("ROR record of Japan Science and Technology Agency");
  await expect(page.getByTestId("member-ror")).toHaveAttribute("href", "https://ror.org/00097mb19");
  await expect(page.getByTestId("ror-confirmed")).toHaveCount(0);

  // The fund's verification (posted as its form posts it) goes with the record; a reviewer confirms both.
  await sendOrganisationVerification(page, nick);
  await reviewVerification(browser, nick, "approve", async (submission) => {
    await expect(submission.getByRole("link", { name: "https://ror.org/00097mb19" })).toBeVisible();
    await submission.getByLabel("The ROR record is theirs").check();
  });
  await page.reload();
  await expect(page.getByTestId("ror-confirmed")).toHaveText("✓ confirmed by verification");

  await page.goto("/personal/Setting?section=organisation");
  await page.getByRole("button", { name: "Remove the link" }).click();
  await expect(page.getByText("Not linked to an organisation in ROR.")).toBeVisible();
});
