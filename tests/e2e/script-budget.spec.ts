import { gzipSync } from "node:zlib";
import { expect, signIn, test } from "./fixtures";

// The JavaScript budget (docs/decisions/0011-javascript-budget.md): at most 130 KB gzip per page.
// A size, not a time: a server-only library reaching the browser (zod through a shared module, once)
// fails here instead of waiting for `npm run bench` to print OVER BUDGET.
const BUDGET = 130 * 1024;

for (const path of ["/login", "/home", "/retrieval/detail?id=1", "/personal/stats", "/personal/ranking"]) {
  test(`${path} loads at most 130 KB of JavaScript, gzipped`, async ({ page }) => {
    if (path !== "/login") await signIn(page);
    const html = await (await page.request.get(path)).text();
    const scripts = new Set([...html.matchAll(/(?:modulepreload" href=|from )"(\/assets\/[^"]+\.js)"/g)].map((m) => m[1] ?? ""));
    expect(scripts.size).toBeGreaterThan(0);
    let total = 0;
    for (const src of scripts) total += gzipSync(Buffer.from(await (await page.request.get(src)).body()), { level: 9 }).length;
    expect(total).toBeLessThanOrEqual(BUDGET);
  });
}
