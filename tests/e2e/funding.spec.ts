import { expect, signUpAndIn, test } from "./fixtures";
import { deleteItems, hasJs, otherMember, ready, uploadOpen } from "./helpers";

// Issue 52, JavaScript on and off: a fund links its organisation's ROR record, a researcher names
// the fund as the funder of two works, the fund sees both under "Research we supported", named by
// the author, confirms the one it funded and declines the one named by mistake.

test("a fund confirms the research it supported and declines a work named by mistake", async ({ page, browser }) => {
  const info = test.info();
  // Each project its own funder, so the two runs never name each other's fund.
  const [ror, name] = hasJs(info)
    ? ["004rtk039", "Japan Agency for Medical Research and Development"]
    : ["018mejw64", "Deutsche Forschungsgemeinschaft"];
  const fund = await otherMember(browser, `Fund ${info.project.name} ${Date.now()}`, {
    account_type: 2,
    kind: "facilitator",
    organisation: name,
  });
  await fund.page.goto(`/personal/Setting?section=organisation&ror=${ror}`);
  await fund.page.getByRole("button", { name: "Link this organisation" }).click();
  await expect(fund.page.getByTestId("ror-linked").getByRole("link")).toHaveAttribute("href", `https://ror.org/${ror}`);

  await signUpAndIn(page, `Funded Researcher ${Date.now()}`);
  const origin = info.project.use.baseURL as string;
  const ids = [
    await uploadOpen(page.request, origin, `Funded study ${Date.now()}`),
    await uploadOpen(page.request, origin, `Unrelated study ${Date.now()}`),
  ];
  try {
    for (const [n, id] of ids.entries()) {
      await page.goto(`/retrieval/detail?id=${id}`);
      await ready(page, info);
      await page.getByTestId("manage-funding").click();
      await page.getByLabel("Funder", { exact: true }).fill(name);
      await page.getByLabel("Funder's ROR id or Crossref Funder ID").fill(`https://ror.org/${ror}`);
      await page.getByLabel("Award number").fill(`AWD-${n + 1}`);
      await page.getByRole("button", { name: "Add funding" }).click();
      await expect(page.getByTestId("funding-list")).toContainText(`${name} (https://ror.org/${ror}) · AWD-${n + 1} · named by the author`);
    }
    await page.goto(`/retrieval/detail?id=${ids[0]}`);
    await expect(page.getByTestId("funding")).toHaveText(`Funded by: ${name} (AWD-1)`);

    await fund.page.goto("/personal");
    await ready(fund.page, info);
    const supported = fund.page.getByTestId("supported");
    await expect(supported.getByRole("listitem")).toHaveCount(2);
    await supported.getByRole("listitem").filter({ hasText: "AWD-1" }).getByRole("button", { name: "Confirm" }).click();
    await supported.getByRole("listitem").filter({ hasText: "AWD-2" }).getByRole("button", { name: "Decline" }).click();
    await expect(supported.getByRole("listitem")).toHaveCount(1);
    await expect(supported.getByRole("listitem")).toContainText("AWD-1 · confirmed by the funder");

    await page.goto(`/retrieval/detail?id=${ids[0]}`);
    await expect(page.getByTestId("funding")).toHaveText(`Funded by: ${name} (AWD-1) · confirmed by the funder`);
    await page.goto(`/retrieval/detail?id=${ids[1]}`);
    await expect(page.getByTestId("funding")).toHaveCount(0);
  } finally {
    await fund.close();
    await deleteItems(page.request, origin, ids);
  }
});
