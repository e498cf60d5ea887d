import { expect, signIn, test } from "./fixtures";
import { expectTabs, JS_ONLY, open, ready, recorded } from "./helpers";

// Pages of the layout are for members: every test here starts signed in as the demo researcher.
test.beforeEach(async ({ page }) => {
  await signIn(page);
});

const sidebarLink = (page: import("@playwright/test").Page, name: string) =>
  page.getByTestId("sidebar").getByRole("link", { name, exact: true });

test("the shell: menu, page titles, breadcrumb and tags bar", async ({ page }, info) => {
  await open(page, info, "/");
  await expect(page).toHaveURL(/\/home$/);
  await expect(page).toHaveTitle("Home - Research Commons");

  await sidebarLink(page, "Discovery").click();
  await expect(page).toHaveURL(/\/discovery$/);
  await expect(page).toHaveTitle("Discovery - Research Commons");
  await expect(page.getByTestId("breadcrumb")).toHaveText("DashboardDiscovery");
  await expect(page.getByTestId("section-title")).toHaveText("Discovery");
  await expect(page.getByTestId("feed-filters")).toBeVisible();

  await recorded(page, "/discovery");
  await sidebarLink(page, "Upload").click();
  await expect(page).toHaveTitle("Upload - Research Commons");
  await recorded(page, "/upload");
  await sidebarLink(page, "Retrieval").click();
  await expectTabs(page, ["Home", "Discovery", "Upload", "Retrieval"]);

  // Affixed Home has no close button; closing another tab keeps the current page.
  await expect(page.getByRole("button", { name: "Close Home" })).toHaveCount(0);
  await page.getByRole("button", { name: "Close Discovery" }).click();
  await expectTabs(page, ["Home", "Upload", "Retrieval"]);
  await expect(page).toHaveURL(/\/retrieval$/);

  // Closing the current page's tab goes to the last remaining one.
  await page.getByRole("button", { name: "Close Retrieval" }).click();
  await expect(page).toHaveURL(/\/upload$/);
  await expectTabs(page, ["Home", "Upload"]);

  // The tabs are remembered by the server across a reload.
  await page.reload();
  await expectTabs(page, ["Home", "Upload"]);
});

test("hidden pages: title, breadcrumb trail and the active menu entry", async ({ page }, info) => {
  await open(page, info, "/retrieval/detail?id=1");
  await expect(page).toHaveTitle("Safe drinking water in small towns - Research Commons");
  await expect(page.getByTestId("breadcrumb")).toHaveText("DashboardRetrievalDetail");
  await expect(sidebarLink(page, "Retrieval")).toHaveAttribute("aria-current", "page");
  await open(page, info, "/personal/Setting");
  await expect(page).toHaveTitle("Settings - Research Commons");
  await expect(page.getByTestId("sidebar")).not.toContainText("Personal");
});

test("close others and close all keep the affixed tab", async ({ page }, info) => {
  for (const path of ["/discovery", "/upload", "/message"]) await open(page, info, path);
  await expectTabs(page, ["Home", "Discovery", "Upload", "Message"]);

  await page.getByTestId("tags-more").locator("summary").click();
  await page.getByRole("button", { name: "Close others" }).click();
  await expectTabs(page, ["Home", "Message"]);
  await expect(page).toHaveURL(/\/message$/);

  await page.getByTestId("tags-more").locator("summary").click();
  await page.getByRole("button", { name: "Close all" }).click();
  await expectTabs(page, ["Home"]);
  await expect(page).toHaveURL(/\/home$/);
});

test("refresh reloads the page through /redirect", async ({ page }, info) => {
  await open(page, info, "/upload?tab=video");
  await page.getByTestId("tags-more").locator("summary").click();
  await page.getByRole("link", { name: "Refresh" }).click();
  await expect(page).toHaveURL(/\/upload\?tab=video$/);
});

test("switching language translates the shell and says so", async ({ page }, info) => {
  await open(page, info, "/discovery");
  await page.getByRole("button", { name: "JP" }).click();
  await ready(page, info);
  await expect(page.locator("html")).toHaveAttribute("lang", "ja");
  await expect(page.getByTestId("toast")).toHaveText("言語を切り替えました");
  await expect(page).toHaveURL(/\/discovery$/);
  await expect(page).toHaveTitle("発見 - リサーチ・コモンズ");
  await expect(sidebarLink(page, "ホーム")).toBeVisible();
  await expect(sidebarLink(page, "ミーティング")).toBeVisible();

  await page.getByRole("button", { name: "CN" }).click();
  await ready(page, info);
  await expect(page.locator("html")).toHaveAttribute("lang", "zh");
  await expect(page.getByTestId("toast")).toHaveText("切换语言成功");
  await expect(sidebarLink(page, "发现")).toBeVisible();
  await expect(sidebarLink(page, "消息")).toBeVisible();

  // The notification goes by itself (after 5 seconds), with or without JavaScript.
  await expect(page.getByTestId("toast")).toBeHidden();
  // The choice is remembered; the flash is not shown twice.
  await page.reload();
  await expect(page.locator("html")).toHaveAttribute("lang", "zh");
  await expect(page.getByTestId("toast")).toHaveCount(0);
});

test.describe("a browser asking for Chinese", () => {
  test.use({ locale: "zh-CN" });
  test("gets Chinese without choosing", async ({ page }, info) => {
    await open(page, info, "/home");
    await expect(page.locator("html")).toHaveAttribute("lang", "zh");
    await expect(sidebarLink(page, "主页")).toBeVisible();
  });
});

test("the hamburger collapses the sidebar, and the server remembers it", async ({ page }, info) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await open(page, info, "/discovery");
  const sidebar = page.getByTestId("sidebar");
  const wide = (await sidebar.boundingBox())?.width ?? 0;
  expect(wide).toBeGreaterThan(160);

  await page.getByTestId("hamburger").click();
  await expect(page.locator(".app-wrapper")).toHaveAttribute("data-sidebar", "closed");
  await expect(sidebarLink(page, "Upload").locator(".menu-label")).toBeHidden();
  await expect(page).toHaveURL(/\/discovery$/);
  await expect.poll(async () => (await sidebar.boundingBox())?.width ?? 0).toBeLessThan(70);

  // The spec's cookie holds "0" once the server has answered (JavaScript shows the change before that).
  await expect.poll(async () => (await page.context().cookies()).find((c) => c.name === "sidebarStatus")?.value).toBe("0");
  await page.reload();
  await expect(page.locator(".app-wrapper")).toHaveAttribute("data-sidebar", "closed");

  await page.getByTestId("hamburger").click();
  await expect(page.locator(".app-wrapper")).toHaveAttribute("data-sidebar", "open");
});

test("below 992 px the sidebar starts closed, opens over the page, and closes on navigation", async ({ page }, info) => {
  await page.setViewportSize({ width: 800, height: 900 });
  await open(page, info, "/discovery");
  const sidebar = page.getByTestId("sidebar");
  await expect(sidebar).not.toBeInViewport();
  await expect(page.getByTestId("hamburger")).toBeHidden();

  await page.getByTestId("hamburger-mobile").click();
  await expect(sidebar).toBeInViewport();
  await expect(page.getByTestId("drawer-bg")).toBeVisible();

  // The page behind is not pushed aside: the menu overlays it.
  const main = await page.locator(".main-container").boundingBox();
  expect(main?.x).toBe(0);

  await sidebarLink(page, "Upload").click();
  await expect(page).toHaveURL(/\/upload$/);
  await expect(sidebar).not.toBeInViewport();
});

test("below 992 px a click outside the open menu closes it", async ({ page }, info) => {
  await page.setViewportSize({ width: 800, height: 900 });
  await open(page, info, "/discovery");
  await page.getByTestId("hamburger-mobile").click();
  await expect(page.getByTestId("sidebar")).toBeInViewport();
  await page.mouse.click(700, 500);
  await expect(page.getByTestId("sidebar")).not.toBeInViewport();
  await expect(page).toHaveURL(/\/discovery$/);
});

test("an unknown path answers the 404 page with status 404, and no JavaScript", async ({ page }) => {
  const response = await page.goto("/no/such/page?x=1");
  expect(response?.status()).toBe(404);
  await expect(page.locator("script[src], script[type=module], link[rel=modulepreload]")).toHaveCount(0);
  await expect(page).toHaveURL(/\/no\/such\/page\?x=1$/);
  await expect(page.getByRole("heading", { name: "This page does not exist" })).toBeVisible();
  await expect(page).toHaveTitle("Page not found - Research Commons");
  await page.getByRole("link", { name: "Back to home" }).click();
  await expect(page).toHaveURL(/\/home$/);
});

test("/401 explains the missing permission", async ({ page }) => {
  const response = await page.goto("/401");
  expect(response?.status()).toBe(401);
  await expect(page.locator("script[src], script[type=module], link[rel=modulepreload]")).toHaveCount(0);
  await expect(page.getByRole("heading", { name: "You do not have permission to view this page" })).toBeVisible();
});

test("pages and assets carry the security headers", async ({ page }) => {
  const html = await page.goto("/home");
  const headers = html?.headers() ?? {};
  expect(headers["content-security-policy"]).toMatch(/script-src 'nonce-[A-Za-z0-9+/=]+' 'strict-dynamic'/);
  expect(headers["content-security-policy"]).toContain("frame-ancestors 'self'");
  expect(headers["strict-transport-security"]).toContain("max-age=");
  expect(headers["x-content-type-options"]).toBe("nosniff");
  expect(headers["referrer-policy"]).toBe("strict-origin-when-cross-origin");
  const nonce = /'nonce-([^']+)'/.exec(headers["content-security-policy"] ?? "")?.[1];
  await expect(page.locator("script").first()).toHaveAttribute("nonce", /.*/);
  expect(nonce).toBeTruthy();

  const asset = await page.request.get("/favicon.svg");
  expect(asset.headers()["x-content-type-options"]).toBe("nosniff");
  expect(asset.headers()["content-security-policy"]).toContain("frame-ancestors");
});

test("public pages are not cached at all (spec section 2), and no page by a shared cache", async ({ page, request }) => {
  for (const path of ["/login", "/signup", "/signup/individual", "/forgetPassword"]) {
    expect((await request.get(path)).headers()["cache-control"], path).toBe("no-store");
  }
  const home = await page.goto("/home");
  expect(home?.headers()["cache-control"]).toBe("private, no-cache");
  // Pages that show personal data (address, birthday, ID numbers) are not stored by the browser either.
  for (const path of ["/personal/Setting", "/personal/verification"]) {
    expect((await page.goto(path))?.headers()["cache-control"], path).toBe("no-store");
  }
});

test("a cross-site form post is refused and changes nothing", async ({ page, request }) => {
  const res = await request.post("/shell/sidebar", {
    form: { open: "0", redirectTo: "/home" },
    headers: { Origin: "https://evil.example" },
    maxRedirects: 0,
  });
  expect(res.status()).toBe(403);
  expect(res.headers()["set-cookie"]).toBeUndefined();
  await page.goto("/home");
  await expect(page.locator(".app-wrapper")).toHaveAttribute("data-sidebar", "open");
});

test("the text size: chosen in Settings, kept for every page (decision 0044)", async ({ page }, info) => {
  const rootSize = () => page.evaluate(() => getComputedStyle(document.documentElement).fontSize);
  await open(page, info, "/discovery");
  expect(await rootSize()).toBe("16px");
  await open(page, info, "/personal/Setting?section=account");
  await page.getByTestId("size-switcher").getByRole("button", { name: "Large" }).click();
  await expect(page.locator("html")).toHaveAttribute("data-size", "large");
  await expect(page).toHaveURL(/\/personal\/Setting\?section=account$/);
  expect(await rootSize()).toBe("18px");
  await open(page, info, "/retrieval");
  expect(await rootSize()).toBe("18px");
  await open(page, info, "/personal/Setting?section=account");
  await page.getByTestId("size-switcher").getByRole("button", { name: "Small" }).click();
  await expect(page.locator("html")).toHaveAttribute("data-size", "small");
  expect(await rootSize()).toBe("14px");
  await page.getByTestId("size-switcher").getByRole("button", { name: "Medium" }).click();
  await expect(page.locator("html")).not.toHaveAttribute("data-size", /./);
  expect(await rootSize()).toBe("16px");
});

test.describe("JavaScript enhancements", JS_ONLY, () => {
  test("right-click menu (105 px) and middle-click close on tabs", async ({ page }, info) => {
    for (const path of ["/discovery", "/upload", "/message"]) await open(page, info, path);
    await page.getByTestId("tag").filter({ hasText: "Upload" }).getByRole("link").click({ button: "right" });
    const menu = page.getByTestId("tags-context-menu");
    await expect(menu).toBeVisible();
    expect((await menu.boundingBox())?.width).toBe(105);
    await menu.getByRole("button", { name: "Close", exact: true }).click();
    await expectTabs(page, ["Home", "Discovery", "Message"]);

    await page.getByTestId("tag").filter({ hasText: "Discovery" }).getByRole("link").click({ button: "middle" });
    await expectTabs(page, ["Home", "Message"]);
    await expect(page).toHaveURL(/\/message$/);
  });

  test("a visited view keeps a half-written form through the tags bar, until it is sent", async ({ page }, info) => {
    await open(page, info, "/upload");
    await page.getByLabel("Title").fill("Half-written wells report");
    await sidebarLink(page, "Discovery").click();
    await expect(page).toHaveURL(/\/discovery$/);
    await page.getByTestId("tag").filter({ hasText: "Upload" }).getByRole("link").click();
    await expect(page.getByLabel("Title")).toHaveValue("Half-written wells report");
    // Sent (and refused: no file), the draft is let go; the refusal shows what was sent.
    await page.getByRole("button", { name: "Upload", exact: true }).click();
    await expect(page.getByTestId("error-summary")).toBeVisible();
    expect(await page.evaluate(() => Object.keys(sessionStorage).filter((key) => key.startsWith("draft:")))).toEqual([]);
  });

  test("every navigation starts at the top of the page", async ({ page }, info) => {
    await page.setViewportSize({ width: 1280, height: 260 });
    await open(page, info, "/home");
    await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight));
    expect(await page.evaluate(() => window.scrollY)).toBeGreaterThan(0);
    await sidebarLink(page, "Discovery").click();
    await expect(page).toHaveURL(/\/discovery$/);
    await expect.poll(() => page.evaluate(() => window.scrollY)).toBe(0);
  });
});
