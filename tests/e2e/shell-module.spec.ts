import type { Page } from "@playwright/test";
import { clientIp, expect, signUpAndIn, test } from "./fixtures";
import { expectTabs, interactive, JS_ONLY } from "./helpers";

// The layout's behaviours from the shell module (app/enhance/shell.ts, decision 0046), with
// JavaScript, on a page with the shell alone (Home) and on one with a live module of its own beside
// it (Message, whose conversation list follows the inbox too): no page hydrates. Each works in place,
// without loading the page again (a mark left on the window survives), and the badges follow the
// member's inbox live on both.

const PAGES = ["/home", "/message"];

/** Leaves a mark on the window: still there afterwards means the page was not loaded again. */
const mark = (page: Page) => page.evaluate(() => Object.assign(window, { shellMark: true }));
const marked = (page: Page) => page.evaluate(() => (window as { shellMark?: boolean }).shellMark === true);

test.describe("the shell module", JS_ONLY, () => {
  for (const path of PAGES) {
    test(`works on ${path}`, async ({ page, browser }) => {
      const member = await signUpAndIn(page, `Shell ${path}`);
      await page.goto("/discovery");
      await page.goto(path);
      await interactive(page);
      const html = page.locator("html");
      await expect(html).not.toHaveAttribute("data-hydrate");
      await mark(page);

      // The hamburger folds the sidebar in place, and the server remembers it.
      const wrapper = page.locator(".app-wrapper");
      await page.getByTestId("hamburger").click();
      await expect(wrapper).toHaveAttribute("data-sidebar", "closed");
      await expect.poll(async () => (await page.context().cookies()).find((c) => c.name === "sidebarStatus")?.value).toBe("0");
      await page.getByTestId("hamburger").click();
      await expect(wrapper).toHaveAttribute("data-sidebar", "open");
      await expect.poll(async () => (await page.context().cookies()).find((c) => c.name === "sidebarStatus")?.value).toBe("1");

      // Below 992 px the menu opens over the page, and the dimmed page behind closes it.
      await page.setViewportSize({ width: 800, height: 900 });
      await page.getByTestId("hamburger-mobile").click();
      await expect(wrapper).toHaveAttribute("data-mobile-menu", "open");
      await expect(page.getByTestId("sidebar")).toBeInViewport();
      await page.getByTestId("drawer-bg").click({ position: { x: 700, y: 450 } });
      await expect(wrapper).toHaveAttribute("data-mobile-menu", "closed");
      await page.setViewportSize({ width: 1280, height: 900 });

      // The tags bar's right-click menu, 105 px wide; a click elsewhere closes it.
      const discovery = page.getByTestId("tag").filter({ hasText: "Discovery" }).getByRole("link");
      await discovery.click({ button: "right" });
      const menu = page.getByTestId("tags-context-menu");
      await expect(menu).toBeVisible();
      expect((await menu.boundingBox())?.width).toBe(105);
      await page.getByTestId("section-title").click();
      await expect(menu).toHaveCount(0);

      // Logging out asks first; saying no stays.
      page.once("dialog", (dialog) => dialog.dismiss());
      await page.getByTestId("logout").click();
      expect(await marked(page)).toBe(true);

      // The badges follow the inbox live: a message and a follow from another member.
      const other = await browser.newContext({
        baseURL: test.info().project.use.baseURL,
        extraHTTPHeaders: { "CF-Connecting-IP": clientIp() },
      });
      const otherPage = await other.newPage();
      const writer = await signUpAndIn(otherPage, `Writer ${path}`);
      const headers = { Authorization: `Bearer ${writer.token}` };
      const started = await otherPage.request.post("/api/conversations", { headers, data: { user_id: member.id } });
      expect(started.status()).toBeLessThan(300);
      const id = (await started.json()).data.conversation.id;
      const sent = await otherPage.request.post(`/api/conversations/${id}/messages`, {
        headers,
        data: { body: "Hello", client_id: crypto.randomUUID() },
      });
      expect(sent.status(), await sent.text()).toBe(201);
      await expect(page.getByTestId("unread-badge")).toHaveText("1");
      if (path === "/message") await expect(page.getByTestId("conversations")).toContainText("Hello");
      await otherPage.request.post(`/api/users/${member.id}/follow`, { headers });
      await expect(page.getByTestId("bell-badge")).toHaveText("1");
      await expect(page.getByTestId("bell")).toHaveAttribute("aria-label", "Notifications: 1 unread");
      await other.close();
      // Everything above happened in this one page.
      expect(await marked(page)).toBe(true);

      // Middle-click closes a tab (a form post: the page comes back without it).
      await discovery.click({ button: "middle" });
      await expect(page.getByTestId("tag").filter({ hasText: "Discovery" })).toHaveCount(0);
      await interactive(page);

      // The language switch, and its notice closing by itself after 5 s.
      await page.getByTestId("language-switcher").locator("button[value=ja]").click();
      await expect(html).toHaveAttribute("lang", "ja");
      const notice = page.getByTestId("toast");
      await expect(notice).toBeVisible();
      await expect(notice).toBeHidden({ timeout: 20_000 });
      await expectTabs(page, path === "/message" ? ["ホーム", "メッセージ"] : ["ホーム"]);
    });
  }
});
