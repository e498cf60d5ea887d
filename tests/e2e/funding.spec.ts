import { expect, signUpAndIn, test } from "./fixtures";
import {
  deleteItems,
  demo,
  fillUpload,
  hasJs,
  otherMember,
  ready,
  reviewVerification,
  sendOrganisationVerification,
  uploadOpen,
} from "./helpers";

// Issue 52, JavaScript on and off: a fund links its organisation's ROR record (a reviewer confirms it
// with the fund's verification), a researcher names
// the fund as the funder of two works, the fund sees both under "Research we supported", named by
// the author, confirms the one it funded and declines the one named by mistake.

test("a fund confirms the research it supported and declines a work named by mistake", async ({ page, browser }) => {
  const info = test.info();
  // Each project its own funder, so the two runs never name each other's fund.
  const [ror, name, acronym] = hasJs(info)
    ? ["004rtk039", "Japan Agency for Medical Research and Development", "AMED"]
    : ["018mejw64", "Deutsche Forschungsgemeinschaft", "DFG"];
  const fundNick = `Fund ${info.project.name} ${Date.now()}`;
  const fund = await otherMember(browser, fundNick, {
    account_type: 2,
    kind: "facilitator",
    organisation: name,
  });
  await fund.page.goto(`/personal/Setting?section=organisation&ror=${ror}`);
  await fund.page.getByRole("button", { name: "Link this organisation" }).click();
  await expect(fund.page.getByTestId("ror-linked").getByRole("link")).toHaveAttribute("href", `https://ror.org/${ror}`);
  // A reviewer confirms the record with the fund's verification: then it speaks for the organisation.
  await sendOrganisationVerification(fund.page, fundNick);
  await reviewVerification(browser, fundNick, "approve", (submission) => submission.getByLabel("The ROR record is theirs").check());

  const angelName = `Angel ${info.project.name} ${Date.now()}`;
  const angel = await otherMember(browser, angelName, { account_type: 2 });
  await signUpAndIn(page, `Funded Researcher ${Date.now()}`);
  const origin = info.project.use.baseURL as string;
  // The first work is uploaded in the browser, asking to name its funding next; the second is posted.
  await fillUpload(page, "Document (PDF)", `Funded study ${Date.now()}`);
  await page.getByLabel("File", { exact: true }).setInputFiles(demo("sample-document.pdf"));
  await page.getByLabel("Thumbnail image").setInputFiles(demo("sample-document-thumbnail.png"));
  await page.getByLabel("After the upload, name who funded it").check();
  await page.getByRole("button", { name: "Upload", exact: true }).click();
  await expect(page).toHaveURL(/\/retrieval\/detail\/funding\?id=\d+$/);
  const ids = [Number(new URL(page.url()).searchParams.get("id")), await uploadOpen(page.request, origin, `Unrelated study ${Date.now()}`)];
  try {
    for (const [n, id] of ids.entries()) {
      if (n > 0) {
        await page.goto(`/retrieval/detail?id=${id}`);
        await ready(page, info);
        await page.getByTestId("manage-funding").click();
      }
      if (n === 0) {
        // The funder found in the registry by its acronym fills the form; the second is typed.
        await page.getByLabel("Search ROR by name or acronym").fill(acronym);
        await page.getByLabel("Search ROR by name or acronym").press("Enter");
        await page
          .getByTestId("ror-results")
          .getByRole("listitem")
          .filter({ hasText: name })
          .getByRole("link", { name: "Use this funder" })
          .click();
        await expect(page.getByLabel("Funder's ROR id or Crossref Funder ID")).toHaveValue(`https://ror.org/${ror}`);
        await expect(page.getByLabel("Funder", { exact: true })).toHaveValue(name);
      } else {
        await page.getByLabel("Funder", { exact: true }).fill(name);
        await page.getByLabel("Funder's ROR id or Crossref Funder ID").fill(`https://ror.org/${ror}`);
      }
      await page.getByLabel("Award number").fill(`AWD-${n + 1}`);
      await page.getByRole("button", { name: "Add funding" }).click();
      await expect(page.getByTestId("funding-list")).toContainText(`${name} (https://ror.org/${ror}) · AWD-${n + 1} · named by the author`);
    }
    await page.goto(`/retrieval/detail?id=${ids[0]}`);
    await expect(page.getByTestId("funding")).toHaveText(`Funded by: ${name} ROR (AWD-1)`);

    await fund.page.goto("/personal");
    await ready(fund.page, info);
    const supported = fund.page.getByTestId("supported");
    await expect(supported.getByRole("listitem")).toHaveCount(2);
    await supported.getByRole("listitem").filter({ hasText: "AWD-1" }).getByRole("button", { name: "Confirm" }).click();
    await supported.getByRole("listitem").filter({ hasText: "AWD-2" }).getByRole("button", { name: "Decline" }).click();
    await expect(supported.getByRole("listitem")).toHaveCount(1);
    await expect(supported.getByRole("listitem")).toContainText("AWD-1 · confirmed by the funder");

    await page.goto(`/retrieval/detail?id=${ids[0]}`);
    await expect(page.getByTestId("funding")).toHaveText(`Funded by: ${name} ROR (AWD-1) · confirmed by the funder`);
    // The funder's name leads to the research it funded, which the declined work is not.
    await page.getByTestId("funding").getByRole("link", { name }).click();
    await expect(page.getByTestId("search-narrowed")).toContainText(`Research funded by ${name}`);
    const found = page.getByTestId("search-results");
    await expect(found.getByRole("link", { name: /^Funded study/ })).toBeVisible();
    await expect(found.getByRole("link", { name: /^Unrelated study/ })).toHaveCount(0);
    // The funder's acronym finds the organisation, and its members: the fund.
    await page.goto(`/retrieval?q=${acronym}`);
    await page
      .getByTestId("search-organisations")
      .getByRole("listitem")
      .filter({ hasText: name })
      .getByRole("link", { name: "Its members" })
      .click();
    await expect(page.getByTestId("search-narrowed")).toContainText(`Members of ${name}`);
    await expect(found.getByRole("link", { name: new RegExp(`^Fund ${info.project.name}`) })).toBeVisible();
    await page.goto(`/retrieval/detail?id=${ids[1]}`);
    await expect(page.getByTestId("funding")).toHaveCount(0);

    // A supporter with no organisation is found among members and named; their Space lists the work.
    await page.goto(`/retrieval/detail/funding?id=${ids[1]}`);
    await page.getByLabel("Or find the funder among members").fill(angelName);
    await page.getByLabel("Or find the funder among members").press("Enter");
    await page.getByTestId("member-results").getByRole("link", { name: "Use this funder" }).click();
    await expect(page.getByTestId("picked-member")).toBeVisible();
    await page.getByRole("button", { name: "Add funding" }).click();
    await expect(page.getByTestId("funding-list")).toContainText(`${angelName} · named by the author`);
    await angel.page.goto("/personal");
    await expect(angel.page.getByTestId("supported").getByRole("listitem")).toContainText("named by the author");
  } finally {
    await angel.close();
    await fund.close();
    await deleteItems(page.request, origin, ids);
  }
});
