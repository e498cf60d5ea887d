import { readFile } from "node:fs/promises";
import type { Page } from "@playwright/test";
import { jpegPixels, rgbPng } from "../fixtures/images";
import { clientIp, DEMO_PASSWORD, expect, signIn, signUpAndIn, test } from "./fixtures";
import { hasJs, open } from "./helpers";

/** Fills the individual's profile; `skip` leaves one field empty. */
async function fillProfile(page: Page, skip?: string) {
  const form = page.getByTestId("profile-form");
  const text: Record<string, string> = {
    "Nick name": "Settled Member",
    "First name": "Hanako",
    "Middle name": "Q",
    "Family name": "Yamada",
    Birthday: "1990-04-01",
    "Phone number": "+81 3 1234 5678",
    Website: "https://example.org/hanako",
    "Academic field": "Paleoclimatology",
    Address: "1-1 Chiyoda, Tokyo",
    Research: "Ice cores from volcanic islands",
    "Registration purpose": "Find collaborators",
  };
  for (const [label, value] of Object.entries(text)) await form.getByLabel(label, { exact: true }).fill(label === skip ? "" : value);
  await form.getByLabel("Sex").selectOption("unsaid");
  await form.getByLabel("Country", { exact: true }).fill("Japan");
  await form.getByLabel("Nationality").fill("日本");
  await form.getByLabel(/Show my names/).check();
}

test("a member fills and saves every profile field, sees them on their Space and is found by them", async ({ page }) => {
  const me = await signUpAndIn(page, "Profile Owner");
  await open(page, test.info(), "/personal");
  await page.getByRole("link", { name: "Settings" }).click();
  await expect(page).toHaveURL(/\/personal\/Setting$/);
  await expect(page.getByTestId("account-type")).toContainText("Researcher");
  await fillProfile(page, "Middle name");
  await page.getByRole("button", { name: "Save", exact: true }).click();
  await expect(page.getByTestId("error-middleName")).toHaveText("Middle name cannot be empty");
  await page.getByTestId("profile-form").getByLabel("Middle name").fill("Q");
  await page.getByRole("button", { name: "Save", exact: true }).click();
  await expect(page.getByTestId("toast")).toHaveText("Update Success");
  // What was saved comes back in the form, and the account type is still what sign-up chose.
  await expect(page.getByTestId("profile-form").getByLabel("Academic field", { exact: true })).toHaveValue("Paleoclimatology");
  // A country typed in another language comes back named in the page's.
  await expect(page.getByTestId("profile-form").getByLabel("Nationality")).toHaveValue("Japan");
  const info = await (await page.request.get("/api/auth/info", { headers: { Authorization: `Bearer ${me.token}` } })).json();
  expect(info.data.user).toMatchObject({ account_type: 1, nick_name: "Settled Member" });

  await open(page, test.info(), "/personal");
  await expect(page.getByTestId("member-profile")).toHaveText("Hanako Q Yamada · Paleoclimatology · Japan");
  await open(page, test.info(), "/retrieval?q=Paleoclimatology&tab=members");
  await expect(page.locator(`main a[href="/personal?member=${me.id}"]`)).toHaveText("Settled Member");
});

test("a member types an ORCID iD in their profile: a wrong check digit is refused, a right one is shown unverified on their Space", async ({
  page,
}) => {
  await signUpAndIn(page, "Orcid Owner");
  await open(page, test.info(), "/personal/Setting");
  await fillProfile(page);
  const orcid = page.getByTestId("profile-form").getByLabel("ORCID iD", { exact: true });
  await orcid.fill("0000-0002-1825-0098");
  await page.getByRole("button", { name: "Save", exact: true }).click();
  await expect(page.getByTestId("error-orcid")).toHaveText(/check digit/);
  await page.getByTestId("profile-form").getByLabel("ORCID iD", { exact: true }).fill("https://orcid.org/0000000218250097");
  await page.getByRole("button", { name: "Save", exact: true }).click();
  await expect(page.getByTestId("toast")).toHaveText("Update Success");
  await expect(page.getByTestId("profile-form").getByLabel("ORCID iD", { exact: true })).toHaveValue("0000-0002-1825-0097");
  await open(page, test.info(), "/personal");
  await expect(page.getByTestId("member-orcid").getByRole("link")).toHaveAttribute("href", "https://orcid.org/0000-0002-1825-0097");
  // Anyone can type anyone's iD: only one linked by signing in to ORCID is shown as theirs.
  await expect(page.getByTestId("member-orcid")).toContainText("(unverified)");
});

test("refusals are translated beside their field: an empty field, a future birthday, a local phone number", async ({
  page,
  context,
  baseURL,
}) => {
  await signUpAndIn(page, "Strict Fields");
  for (const [language, empty] of [
    ["ja", "姓を入力してください"],
    ["zh", "姓不能为空"],
    ["en", "Family name cannot be empty"],
  ] as const) {
    await context.addCookies([{ name: "language", value: language, url: baseURL as string }]);
    await open(page, test.info(), "/personal/Setting");
    await page.getByTestId("profile-form").locator('[name="familyName"]').fill("");
    await page.getByTestId("profile-form").locator('button[type="submit"]').click();
    await expect(page.getByTestId("error-familyName")).toHaveText(empty);
  }
  await fillProfile(page);
  await page.getByTestId("profile-form").getByLabel("Birthday").fill("2999-01-01");
  await page.getByTestId("profile-form").getByLabel("Phone number").fill("03-1234-5678");
  await page.getByRole("button", { name: "Save", exact: true }).click();
  await expect(page.getByTestId("error-birthday")).toHaveText("The birthday cannot be in the future");
  await expect(page.getByTestId("error-phone")).toHaveText(/international format/);
});

test("a facilitator's form asks for the organisation's fields too", async ({ page }) => {
  await signUpAndIn(page, "Org Member", { account_type: 2, kind: "facilitator", organisation: "Blue Fund" });
  await open(page, test.info(), "/personal/Setting");
  await expect(page.getByTestId("account-type")).toContainText("Investor");
  await fillProfile(page);
  await page.getByRole("button", { name: "Save", exact: true }).click();
  await expect(page.getByTestId("error-legal")).toHaveText("Legal representative cannot be empty");
  await expect(page.getByTestId("error-organisationEmail")).toHaveText("Organisation email cannot be empty");
});

test("changing the password needs the current one and logs out every other browser, not this one", async ({ page, browser }) => {
  const me = await signUpAndIn(page, "Password Changer");
  const elsewhere = await browser.newContext({ extraHTTPHeaders: { "CF-Connecting-IP": clientIp() } });
  const other = await elsewhere.newPage();
  await other.goto("/login");
  await signIn(other, me.email);
  await open(page, test.info(), "/personal/Setting?section=account");
  const form = page.getByTestId("password-form");
  await form.getByLabel("Current password").fill("not my password");
  await form.getByLabel("New password").fill("a brand new passphrase");
  await form.getByLabel("Confirm password").fill("a brand new passphrase");
  await page.getByRole("button", { name: "Change password" }).click();
  await expect(page.getByTestId("error-currentPassword")).toHaveText("The current password is incorrect");
  await form.getByLabel("Current password").fill(DEMO_PASSWORD);
  await form.getByLabel("New password").fill("a brand new passphrase");
  await form.getByLabel("Confirm password").fill("a brand new passphrase");
  await page.getByRole("button", { name: "Change password" }).click();
  await expect(page.getByTestId("toast")).toHaveText("Password changed. Your other sessions were logged out.");
  await open(page, test.info(), "/home");
  await expect(page).toHaveURL(/\/home$/);
  await other.goto("/home");
  await expect(other).toHaveURL(/\/login/);
  expect((await page.request.post("/api/users/login", { data: { email: me.email, pwd: "a brand new passphrase" } })).status()).toBe(200);
  await elsewhere.close();
});

test("a member downloads their data, then deletes their account: every session ends and they cannot sign in", async ({ page, browser }) => {
  const me = await signUpAndIn(page, "Data Owner");
  const elsewhere = await browser.newContext({ extraHTTPHeaders: { "CF-Connecting-IP": clientIp() } });
  const other = await elsewhere.newPage();
  await other.goto("/login");
  await signIn(other, me.email);
  await open(page, test.info(), "/personal/Setting?section=account");
  const [download] = await Promise.all([page.waitForEvent("download"), page.getByTestId("export").click()]);
  const data = JSON.parse(await readFile((await download.path()) ?? "", "utf8"));
  expect(data.account).toMatchObject({ id: me.id, email: me.email, nick_name: "Data Owner" });

  const form = page.getByTestId("delete-form");
  await form.getByLabel("Current password").fill(DEMO_PASSWORD);
  await form.getByRole("button", { name: "Delete my account" }).click();
  await expect(page.getByTestId("error-confirm")).toHaveText("Tick the box to confirm");
  await form.getByLabel("Current password").fill(DEMO_PASSWORD);
  await form.getByLabel(/cannot be undone/).check();
  await form.getByRole("button", { name: "Delete my account" }).click();
  await expect(page).toHaveURL(/\/login$/);
  await expect(page.getByTestId("toast")).toHaveText("Your account was deleted.");
  await other.goto("/home");
  await expect(other).toHaveURL(/\/login/);
  expect((await page.request.post("/api/users/login", { data: { email: me.email, pwd: DEMO_PASSWORD } })).status()).toBe(401);
  await elsewhere.close();
});

/** Wider than high: red on the left, blue on the right. */
const widePng = () => rgbPng(600, 300, (x) => (x < 300 ? [220, 30, 30] : [30, 30, 220]));

test("a member sets an avatar (a cropper with JavaScript, a plain file without), sees it in the header, and goes back to the default", async ({
  page,
}) => {
  await signUpAndIn(page, "Pictured Member");
  await open(page, test.info(), "/personal/Setting?section=avatar");
  const header = page.getByTestId("avatar");
  await expect(header.locator("svg")).toBeVisible();
  const form = page.getByTestId("avatar-form");
  const field = form.getByLabel("Choose an image");

  // A GIF, which a browser could draw, is refused as the server refuses it: one rule with and without JavaScript.
  const gif = Buffer.from("R0lGODlhAQABAIAAAP///wAAACH5BAEAAAAALAAAAAABAAEAAAICRAEAOw==", "base64");
  await field.setInputFiles({ name: "me.gif", mimeType: "image/gif", buffer: gif });
  if (!hasJs(test.info())) await form.getByRole("button", { name: "Save avatar" }).click();
  await expect(page.getByTestId("error-avatar")).toHaveText("Cropped image must be PNG or JPG");
  await expect(page.getByTestId("cropper")).toHaveCount(0);

  // A file posing as a picture is refused, in the browser with JavaScript and by the server without.
  await field.setInputFiles({ name: "me.png", mimeType: "image/png", buffer: Buffer.from("<html>not a picture</html>") });
  if (!hasJs(test.info())) await form.getByRole("button", { name: "Save avatar" }).click();
  await expect(page.getByTestId("error-avatar")).toHaveText("Cropped image must be PNG or JPG");

  await field.setInputFiles({ name: "me.png", mimeType: "image/png", buffer: widePng() });
  if (hasJs(test.info())) {
    const cropper = page.getByTestId("cropper");
    await expect(cropper.locator("canvas")).toBeVisible();
    // Moved to the right end: only the blue half shows.
    await cropper.getByLabel("Left to right").fill("1");
  }
  await form.getByRole("button", { name: "Save avatar" }).click();
  await expect(page.getByTestId("toast")).toHaveText("Update Success");
  const image = header.locator("img");
  await expect(image).toHaveAttribute("src", /^\/avatars\/\d+\/[\w-]+\.jpg$/);
  const served = await page.request.get((await image.getAttribute("src")) ?? "");
  expect(served.headers()["content-type"]).toBe("image/jpeg");
  // The stored square is 256 pixels a side (the JPEG's progressive frame header says so)...
  const bytes = await served.body();
  const frame = bytes.indexOf(Buffer.from([0xff, 0xc2]));
  expect([bytes.readUInt16BE(frame + 5), bytes.readUInt16BE(frame + 7)]).toEqual([256, 256]);
  // ...of what the cropper chose (all blue), or without it the centre (red, then blue).
  const pixel = await jpegPixels(bytes);
  const blueness = ([r = 0, , b = 0]: number[]) => b - r;
  const [left, right] = [blueness(pixel(10, 128)), blueness(pixel(245, 128))];
  expect([left > 100 ? "blue" : left < -100 ? "red" : "mixed", right > 100 ? "blue" : "other"]).toEqual([
    hasJs(test.info()) ? "blue" : "red",
    "blue",
  ]);

  await page.getByRole("button", { name: "Use the default picture" }).click();
  await expect(header.locator("svg")).toBeVisible();
});
