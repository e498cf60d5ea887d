import type { Page } from "@playwright/test";
import { clientIp, codeFor, DEMO_PASSWORD, expect, logInWithPassword, signUpAndIn, test, uniqueEmail } from "./fixtures";
import { hasJs, logOut, ready } from "./helpers";

async function signUp(
  page: Page,
  options: {
    type: "Researcher" | "Investor or supporter";
    kind: "An individual" | "An organisation (facilitator)";
    email: string;
    organisation?: string;
  },
) {
  const info = test.info();
  await page.goto("/signup");
  await ready(page, info);
  await page.getByLabel(options.type).check();
  await page.getByRole("button", { name: options.kind }).click();
  await ready(page, info);
  if (options.organisation) await page.getByLabel("Organisation name").fill(options.organisation);
  await page.getByLabel("Email").fill(options.email);
  await page.getByRole("button", { name: "Send code" }).click();
  await expect(page.getByTestId("notice")).toHaveText("Send Success");
  // What was typed is kept across the post.
  await expect(page.getByLabel("Email")).toHaveValue(options.email);
  await page.getByLabel("Verification code").fill(await codeFor(page.request, options.email));
  await page.getByLabel("Nick name").fill("New Member");
  await page.getByLabel("Password", { exact: true }).fill("a long walk by the river");
  await page.getByLabel("Confirm password").fill("a long walk by the river");
  await page.getByRole("button", { name: "Create account" }).click();
  await expect(page).toHaveURL(/\/home$/);
  await expect(page.getByTestId("toast")).toHaveText("Welcome! Your account is ready.");
}

/** Logs in as a member would: the login form, filled and sent. */
async function logInThroughForm(page: Page, email: string, password: string) {
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Log in" }).click();
}

test("sign up as a researcher (individual), log out, and log back in", async ({ page }) => {
  const email = uniqueEmail("researcher");
  await signUp(page, { type: "Researcher", kind: "An individual", email });
  await expect(page.getByTestId("avatar")).toHaveAttribute("target", "_blank");
  await expect(page.getByTestId("avatar")).toHaveAttribute("href", "/personal");
  const info = await (await page.request.get("/api/auth/info")).json();
  expect(info.code).toBe(4010); // the API wants the header, not the cookie
  await logOut(page);
  await page.goto("/home");
  await expect(page).toHaveURL(/\/login\?redirect=%2Fhome$/);
  await logInThroughForm(page, email, "a long walk by the river");
  await expect(page).toHaveURL(/\/home$/);
});

test("sign up as an investor facilitator, and the account type is fixed", async ({ page }) => {
  const email = uniqueEmail("fund");
  await signUp(page, { type: "Investor or supporter", kind: "An organisation (facilitator)", email, organisation: "Blue Ocean Fund" });
  const login = await page.request.post("/api/users/login", { data: { email, pwd: "a long walk by the river" } });
  const { data } = await login.json();
  expect(data.user.account_type).toBe(2);
  const info = await page.request.get("/api/auth/info", { headers: { Authorization: `Bearer ${data.access_token}` } });
  expect((await info.json()).data.user).toMatchObject({ account_type: 2, kind: "facilitator", organisation: "Blue Ocean Fund" });
  // No call changes the account type.
  const change = await page.request.post("/api/auth/info", {
    data: { account_type: 1 },
    headers: { Authorization: `Bearer ${data.access_token}` },
  });
  expect(change.status()).toBe(405);
});

test("a guarded deep link with a query goes through login and lands exactly there", async ({ page }) => {
  await page.goto("/retrieval/detail?id=42&tab=comments");
  await expect(page).toHaveURL(/\/login\?redirect=%2Fretrieval%2Fdetail%3Fid%3D42%26tab%3Dcomments$/);
  await expect(page.getByTestId("toast")).toHaveText("Please log in to view contents");
  await ready(page, test.info());
  await logInThroughForm(page, "investor@demo.test", DEMO_PASSWORD);
  await expect(page).toHaveURL(/\/retrieval\/detail\?id=42&tab=comments$/);
  // Signed in, /login goes to / (and so to /home).
  await page.goto("/login");
  await expect(page).toHaveURL(/\/home$/);
});

test("an outside redirect target is ignored after login", async ({ page }) => {
  await page.goto("/login?redirect=https%3A%2F%2Fevil.example%2F");
  await ready(page, test.info());
  await logInThroughForm(page, "lab@demo.test", DEMO_PASSWORD);
  await expect(page).toHaveURL(/127\.0\.0\.1:\d+\/home$/);
});

test("wrong credentials get one message that does not say which part was wrong", async ({ page }) => {
  for (const email of ["fund@demo.test", uniqueEmail("nobody")]) {
    await page.goto("/login");
    await ready(page, test.info());
    await page.getByLabel("Email").fill(email);
    await page.getByLabel("Password").fill("not the password");
    await page.getByRole("button", { name: "Log in" }).click();
    await expect(page.getByTestId("form-error")).toHaveText("The email or password is incorrect");
    await expect(page.getByLabel("Email")).toHaveValue(email);
  }
});

test("a password reset ends the old session and mails a notice", async ({ page, browser }) => {
  const email = uniqueEmail("reset");
  // A member signed up through the API, with a session open elsewhere.
  await page.request.post("/api/users/send-verification-code", { data: { email } });
  const code = await codeFor(page.request, email);
  const created = await page.request.post("/api/users/register", {
    data: { email, code, pwd: "first password here", nick_name: "Resetter", account_type: 1 },
  });
  expect(created.status()).toBe(201);
  const other = await browser.newContext({ extraHTTPHeaders: { "CF-Connecting-IP": "10.9.9.9" } });
  const otherPage = await other.newPage();
  await otherPage.goto("/login");
  await logInWithPassword(otherPage, email, "first password here");
  await otherPage.goto("/home");
  await expect(otherPage).toHaveURL(/\/home$/);

  await page.goto("/forgetPassword");
  await ready(page, test.info());
  await page.getByLabel("Email").fill(email);
  await page.getByRole("button", { name: "Send code" }).click();
  await expect(page.getByTestId("notice")).toHaveText("Send Success");
  await page.getByLabel("Verification code").fill(await codeFor(page.request, email));
  await page.getByLabel("New password").fill("second password here");
  await page.getByLabel("Confirm password").fill("second password here");
  await page.getByRole("button", { name: "Reset password" }).click();
  await expect(page).toHaveURL(/\/login$/);
  await expect(page.getByTestId("toast")).toHaveText("Reset Password Success");

  await otherPage.goto("/home");
  await expect(otherPage).toHaveURL(/\/login\?redirect=%2Fhome$/);
  await other.close();
  const mails = await (await page.request.get("/dev/mail")).text();
  expect(mails).toContain("Your Research Commons password was changed");

  await logInWithPassword(page, email, "second password here");
  await page.goto("/home");
  await expect(page).toHaveURL(/\/home$/);
});

const MESSAGES = {
  en: {
    emailEmpty: "Email cannot be empty",
    passwordEmpty: "Password can not be empty",
    emailFormat: "Please enter the correct email format!",
    codeEmpty: "Verification Code can not be empty",
    confirmEmpty: "Confirm Password can not be empty",
    differ: "Entered passwords differ!",
    login: "Log in",
    signup: "Create account",
    email: "Email",
    password: "Password",
    confirm: "Confirm password",
    code: "Verification code",
    nick: "Nick name",
  },
  ja: {
    emailEmpty: "メールアドレスを入力してください",
    passwordEmpty: "パスワードを入力してください",
    emailFormat: "正しいメールアドレスの形式で入力してください！",
    codeEmpty: "認証コードを入力してください",
    confirmEmpty: "確認用パスワードを入力してください",
    differ: "入力されたパスワードが一致しません！",
    login: "ログイン",
    signup: "アカウントを作成",
    email: "メールアドレス",
    password: "パスワード",
    confirm: "パスワード（確認）",
    code: "認証コード",
    nick: "ニックネーム",
  },
  zh: {
    emailEmpty: "邮箱不能为空",
    passwordEmpty: "密码不能为空",
    emailFormat: "请输入正确的邮箱格式！",
    codeEmpty: "验证码不能为空",
    confirmEmpty: "确认密码不能为空",
    differ: "两次输入的密码不一致！",
    login: "登录",
    signup: "创建账户",
    email: "邮箱",
    password: "密码",
    confirm: "确认密码",
    code: "验证码",
    nick: "昵称",
  },
};

for (const [lang, m] of Object.entries(MESSAGES)) {
  test(`every sign-in message of the spec appears for its bad input (${lang})`, async ({ page, context, baseURL }) => {
    await context.addCookies([{ name: "language", value: lang, url: baseURL as string }]);
    const info = test.info();
    await page.goto("/login");
    await ready(page, info);
    await page.getByRole("button", { name: m.login, exact: true }).click();
    await expect(page.getByTestId("error-email")).toHaveText(m.emailEmpty);
    await expect(page.getByTestId("error-password")).toHaveText(m.passwordEmpty);
    await page.getByLabel(m.email).fill("not-an-email");
    await page.getByLabel(m.password, { exact: true }).fill("x");
    await page.getByRole("button", { name: m.login, exact: true }).click();
    await expect(page.getByTestId("error-email")).toHaveText(m.emailFormat);

    await page.goto("/signup/individual?type=1");
    await ready(page, info);
    await page.getByLabel(m.email).fill("someone@e2e.test");
    await page.getByLabel(m.nick).fill("Someone");
    await page.getByLabel(m.password, { exact: true }).fill("long enough password");
    await page.getByRole("button", { name: m.signup }).click();
    await expect(page.getByTestId("error-code")).toHaveText(m.codeEmpty);
    await expect(page.getByTestId("error-confirmPassword")).toHaveText(m.confirmEmpty);
    await page.getByLabel(m.code).fill("123456");
    await page.getByLabel(m.password, { exact: true }).fill("long enough password");
    await page.getByLabel(m.confirm).fill("another long password");
    await page.getByRole("button", { name: m.signup }).click();
    await expect(page.getByTestId("error-confirmPassword")).toHaveText(m.differ);
  });
}

test("the language a member chose follows them to another browser", async ({ page, browser }) => {
  const member = await signUpAndIn(page, "Polyglot");
  await page.goto("/home");
  await ready(page, test.info());
  await page.getByRole("button", { name: "CN" }).click();
  await expect(page.locator("html")).toHaveAttribute("lang", "zh");

  // A fresh browser (English by Accept-Language, no choice made) signs in and gets Chinese.
  const elsewhere = await browser.newContext({
    javaScriptEnabled: hasJs(test.info()),
    baseURL: test.info().project.use.baseURL,
    extraHTTPHeaders: { "CF-Connecting-IP": clientIp(), "Accept-Language": "en-US,en;q=0.9" },
  });
  const other = await elsewhere.newPage();
  await other.goto("/login");
  await ready(other, test.info());
  await expect(other.locator("html")).toHaveAttribute("lang", "en");
  await logInThroughForm(other, member.email, DEMO_PASSWORD);
  await expect(other).toHaveURL(/\/home$/);
  await expect(other.locator("html")).toHaveAttribute("lang", "zh");
  await elsewhere.close();
});

test("an oversized body is refused with 413 in the member's language, page and API alike", async ({ request }) => {
  const huge = "x".repeat(300 * 1024);
  const api = await request.post("/api/users/login", {
    data: { email: "researcher@demo.test", pwd: huge },
    headers: { "Accept-Language": "ja" },
  });
  expect(api.status()).toBe(413);
  expect(await api.json()).toMatchObject({ code: 413, message: "送信内容が大きすぎます" });
  const form = await request.post("/login", { form: { email: "researcher@demo.test", password: huge } });
  expect(form.status()).toBe(413);
  expect(await form.text()).toContain("Too much to send");
  const long = await request.post("/api/users/login", {
    data: { email: "researcher@demo.test", pwd: "x".repeat(257) },
    headers: { "CF-Connecting-IP": clientIp() },
  });
  expect(long.status()).toBe(400);
});

test("guesses from many addresses slow a new browser down, but not the member's own", async ({ page, browser, playwright }) => {
  const info = test.info();
  const { email } = await signUpAndIn(page, "Guarded");
  await page.context().clearCookies({ name: "token" });
  // Signing in through the form makes this browser known to the account.
  await page.goto("/login");
  await ready(page, info);
  await logInThroughForm(page, email, DEMO_PASSWORD);
  await expect(page).toHaveURL(/\/$|\/home$/);
  await page.context().clearCookies({ name: "token" });

  const baseURL = info.project.use.baseURL as string;
  for (let i = 0; i < 20; i++) {
    const guesser = await playwright.request.newContext({ baseURL, extraHTTPHeaders: { "CF-Connecting-IP": clientIp() } });
    expect((await guesser.post("/api/users/login", { data: { email, pwd: `guess ${i}` } })).status()).toBe(401);
    await guesser.dispose();
  }

  const stranger = await browser.newContext({ extraHTTPHeaders: { "CF-Connecting-IP": clientIp() } });
  const strangerPage = await stranger.newPage();
  await strangerPage.goto("/login");
  await ready(strangerPage, info);
  await logInThroughForm(strangerPage, email, DEMO_PASSWORD);
  await expect(strangerPage.getByTestId("form-error")).toContainText("Too many failed attempts on this account");
  await stranger.close();

  await page.goto("/login");
  await ready(page, info);
  await logInThroughForm(page, email, DEMO_PASSWORD);
  await expect(page).toHaveURL(/\/$|\/home$/);
});

test("a session that ends while a page is open explains itself on the login page until the member signs in", async ({ page }) => {
  const member = await signUpAndIn(page, "Expiring");
  await page.goto("/home");
  await ready(page, test.info());
  // Ended elsewhere (as an idle timeout or a logout in another browser would); then the member moves on.
  expect((await page.request.delete("/api/auth/logout", { headers: { Authorization: `Bearer ${member.token}` } })).status()).toBe(200);
  await page.getByTestId("sidebar").getByRole("link", { name: "Discovery", exact: true }).click();
  await expect(page).toHaveURL(/\/login\?redirect=%2Fdiscovery$/);
  await expect(page.getByTestId("session-expired")).toHaveText("Your session has expired. Please log in again.");
  await page.reload();
  await expect(page.getByTestId("session-expired")).toBeVisible();
});

test("signed out, the header offers the login on every public page; an unknown path leads to it, coming back after", async ({ page }) => {
  for (const path of ["/signup", "/signup/individual", "/forgetPassword"]) {
    await page.goto(path);
    await page.getByRole("banner").getByTestId("login-button").click();
    await expect(page, path).toHaveURL(/\/login$/);
  }
  await expect(page.getByTestId("login-button")).toHaveCount(0);
  await page.goto("/no-such-page?x=1");
  await expect(page).toHaveURL(/\/login\?redirect=%2Fno-such-page%3Fx%3D1$/);
  await expect(page.getByTestId("toast")).toHaveText("Please log in to view contents");
});
