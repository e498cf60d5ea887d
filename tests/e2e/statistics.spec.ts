import { readFileSync } from "node:fs";
import type { Browser, Page } from "@playwright/test";
import { parse as parseCsv } from "csv-parse/sync";
import svgPath from "svg-path-parser";
import { clientIp, expect, signUpAndIn, test } from "./fixtures";
import { demo, downloaded, fillUpload, open } from "./helpers";

// Issue 32: a member uploads, a second member views, downloads and cites it; the first member's
// statistics show 1/1/1 for that day in the table, the charts and the CSV. JavaScript on and off.

// A browser's own User-Agent: the headless shell names itself, and robots are not counted.
const BROWSER = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36";

async function memberIn(browser: Browser, name: string, accountType: 1 | 2, javaScriptEnabled: boolean) {
  const context = await browser.newContext({ userAgent: BROWSER, javaScriptEnabled, extraHTTPHeaders: { "CF-Connecting-IP": clientIp() } });
  const page = await context.newPage();
  const member = await signUpAndIn(page, name, { account_type: accountType });
  return { page, member };
}

/**
 * Each chart on the page, read back: its line's points (parsed by a path parser nobody here wrote)
 * turned into values through its own axis, beside the values of its data table.
 */
async function chartsOn(page: Page) {
  const charts = await page.locator("[data-chart]").evaluateAll((figures) =>
    figures.map((figure) => ({
      id: figure.getAttribute("data-chart") ?? "",
      d: figure.querySelector("path[data-line]")?.getAttribute("d") ?? "",
      ticks: [...figure.querySelectorAll("g[data-tick]")].map((tick) => ({
        value: Number(tick.getAttribute("data-tick")),
        y: Number(tick.querySelector("line")?.getAttribute("y1")),
      })),
      table: [...figure.querySelectorAll("table tbody tr")].map((row) => Number(row.querySelectorAll("td")[1]?.textContent)),
    })),
  );
  return charts.map(({ id, d, ticks, table }) => {
    const [low, high] = [ticks[0], ticks.at(-1)];
    if (!low || !high || low.y === high.y) throw new Error(`${id}: an axis without two ticks`);
    const valueAt = (y: number) => low.value + ((y - low.y) * (high.value - low.value)) / (high.y - low.y);
    const drawn = svgPath.parseSVG(d).map((command) => {
      if (!("y" in command)) throw new Error(`${id}: a path command without a point (${command.code})`);
      return Math.round(valueAt(command.y) * 10) / 10;
    });
    return { id, drawn, table };
  });
}

async function expectChartsDrawTheirTables(page: Page) {
  const charts = await chartsOn(page);
  expect(charts.length).toBeGreaterThan(0);
  for (const chart of charts) expect(chart.drawn, chart.id).toEqual(chart.table);
  return new Map(charts.map((chart) => [chart.id, chart.table]));
}

test("a reader's view, download and citation show as 1/1/1 on the owner's statistics, chart and CSV", async ({ page, browser }, info) => {
  const js = info.project.name === "js";
  await signUpAndIn(page, "Stats owner");
  const title = `Counted study ${Date.now()}`;
  await fillUpload(page, "Document (PDF)", title);
  await page.getByLabel("File", { exact: true }).setInputFiles(demo("sample-document.pdf"));
  await page.getByLabel("Thumbnail image").setInputFiles(demo("sample-document-thumbnail.png"));
  await page.getByRole("button", { name: "Upload", exact: true }).click();
  await expect(page).toHaveURL(/\/retrieval\/detail\?id=\d+$/);
  const id = Number(new URL(page.url()).searchParams.get("id"));

  const reader = await memberIn(browser, "Stats reader", 2, js);
  await open(reader.page, info, `/retrieval/detail?id=${id}`);
  await expect(reader.page.getByTestId("content-title")).toHaveText(title);
  // Only the owner sees an item's statistics: not on the page, a 404 from the API.
  await expect(reader.page.getByTestId("item-stats-link")).toHaveCount(0);
  const theirs = await reader.page.request.get(`/api/contents/${id}/stats`, {
    headers: { Authorization: `Bearer ${reader.member.token}` },
  });
  expect(theirs.status()).toBe(404);
  await downloaded(reader.page, ".pdf", () => reader.page.getByTestId("download").click());
  const bib = await downloaded(reader.page, ".bib", () => reader.page.getByTestId("cite-bibtex").click());
  expect(readFileSync((await bib.path()) ?? "", "utf8")).toContain(title);
  await reader.page.context().close();

  // The readings reach the statistics through the queue, a few seconds later: the page is read again until they have.
  const row = page.locator(`[data-testid="stat-items"] tr[data-item="${id}"]`);
  await expect(async () => {
    await open(page, info, "/personal/stats");
    await expect(row.locator("[data-count]")).toHaveText(["1", "1", "1", "0", "0"], { timeout: 1000 });
  }).toPass({ timeout: 60_000 });
  const tables = await expectChartsDrawTheirTables(page);
  // Today is the last day of the last 30.
  for (const series of ["views", "downloads", "exports"]) expect(tables.get(`member-${series}`)?.at(-1), series).toBe(1);
  expect(tables.get("member-likes")?.at(-1)).toBe(0);
  await expect(page.locator('[data-total="views"] dd').first()).toHaveText("1");

  // The CSV says the same, read by a CSV parser.
  const csv = async (table: string) =>
    parseCsv(await (await page.request.get(`/personal/stats/csv?range=30d&per=day&table=${table}`)).text(), { columns: true }) as Record<
      string,
      string
    >[];
  expect((await csv("series")).at(-1)).toMatchObject({ views: "1", downloads: "1", exports: "1", likes: "0" });
  expect((await csv("items")).find((item) => Number(item.id) === id)).toMatchObject({ title, views: "1", downloads: "1", exports: "1" });

  // The item's own statistics, a link from its page for its owner: the same numbers, and its reader's account type.
  await open(page, info, `/retrieval/detail?id=${id}`);
  await page.getByTestId("item-stats-link").click();
  await expect(page).toHaveURL(new RegExp(`/retrieval/detail/stats\\?id=${id}$`));
  await expect(page.getByTestId("item-stats")).toBeVisible();
  await expect(page.locator('[data-readers="supporters"]')).toHaveText("1");
  await expect(page.locator('[data-readers="researchers"]')).toHaveText("0");
  const itemTables = await expectChartsDrawTheirTables(page);
  expect(itemTables.get("item-views")?.at(-1)).toBe(1);
  // Months, through the links (no script needed).
  await page.getByRole("link", { name: "Last 12 months" }).click();
  await expect(page).toHaveURL(/range=12m/);
  const months = await expectChartsDrawTheirTables(page);
  expect(months.get("item-downloads")?.at(-1)).toBe(1);
});
