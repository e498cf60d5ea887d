import { gzipSync } from "node:zlib";
import { expect, signIn, test } from "./fixtures";
import { JS_ONLY } from "./helpers";

// The script budgets (docs/decisions/0046-script-per-page.md): a page that does not hydrate runs at
// most 15 KB gzip of JavaScript (the shell module and its own, written into the page) and fetches
// none; one where React hydrates stays within decision 0011's 130 KB (the issue's 110 KB is not met:
// React and React Router alone are 110 KB). Sizes, not times: the modules in the page and what the
// browser fetched as script until the page said it is interactive, each gzipped at level 9. A library
// reaching a page that should not carry it fails here.
const BUDGET = { plain: 15 * 1024, hydrated: 130 * 1024 };

const PAGES = [
  "/login",
  "/signup/individual",
  "/home",
  "/discovery",
  "/retrieval?q=water",
  "/retrieval/detail?id=1",
  "/retrieval/detail?id=2",
  "/personal",
  "/personal/stats",
  "/personal/ranking",
  "/personal/notifications",
  "/message",
  "/upload",
  "/retrieval/detail/version?id=1",
  "/personal/Setting",
  "/liveStreaming",
];

test.describe("script budgets", JS_ONLY, () => {
  for (const path of PAGES) {
    test(`${path} stays within its kind's script budget`, async ({ page }) => {
      if (path !== "/login" && !path.startsWith("/signup")) await signIn(page);
      const scripts = new Map<string, Promise<number>>();
      page.on("response", (response) => {
        if (response.request().resourceType() !== "script") return;
        scripts.set(
          response.url(),
          response.body().then((body) => gzipSync(body, { level: 9 }).length),
        );
      });
      await page.goto(path);
      await expect(page.locator("html")).toHaveAttribute("data-interactive", "");
      const hydrated = (await page.locator("html").getAttribute("data-hydrate")) !== null;
      const inline = await page
        .locator("script[type=module]:not([src])")
        .evaluateAll((all) => all.map((script) => script.textContent ?? ""));
      const sizes = [...(await Promise.all(scripts.values())), ...inline.map((code) => gzipSync(code, { level: 9 }).length)];
      const total = sizes.reduce((sum, size) => sum + size, 0);
      // Every page with script runs the shell; one that does not hydrate fetches no script at all
      // (its modules are whole: nothing they import, nothing of React).
      expect(inline.length).toBeGreaterThan(0);
      if (!hydrated) expect([...scripts.keys()]).toEqual([]);
      expect(
        total,
        `${hydrated ? "hydrated" : "plain"} page: ${[...scripts.keys(), `${inline.length} in the page`].join(", ")}`,
      ).toBeLessThanOrEqual(hydrated ? BUDGET.hydrated : BUDGET.plain);
    });
  }
});
