import { expect, type Page, type TestInfo } from "@playwright/test";

export const hasJs = (info: TestInfo) => info.project.name === "js";

/** Waits until React has hydrated (with JavaScript), so clicks are handled by the client router. */
export async function ready(page: Page, info: TestInfo) {
  if (hasJs(info)) await expect(page.locator("html")).toHaveAttribute("data-hydrated", "true");
}

export async function open(page: Page, info: TestInfo, path: string) {
  await page.goto(path);
  await ready(page, info);
}

export const menu = (page: Page) => page.getByRole("navigation", { name: /.+/ }).first();

export async function expectTabs(page: Page, titles: string[]) {
  await expect(page.getByTestId("tag")).toHaveText(titles);
}

/** Marks a test (or describe) that needs JavaScript: the no-JS project does not schedule it at all. */
export const JS_ONLY = { tag: "@js-only" };
