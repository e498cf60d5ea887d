import { readFileSync } from "node:fs";
import AxeBuilder from "@axe-core/playwright";
import { type APIRequestContext, type Browser, expect, type Locator, type Page, type TestInfo, test } from "@playwright/test";
import { pngBytes } from "../fixtures/files";
import { clientIp, signIn, signUpAndIn } from "./fixtures";

export const hasJs = (info: TestInfo) => info.project.name === "js";

/** Waits until everything a member can do on the page works (with JavaScript): its modules ran (decisions 0046, 0047). */
export async function ready(page: Page, info: TestInfo) {
  if (hasJs(info)) await interactive(page);
}

export const interactive = (page: Page) => expect(page.locator("html")).toHaveAttribute("data-interactive", "");

export async function open(page: Page, info: TestInfo, path: string) {
  await page.goto(path);
  await ready(page, info);
}

/**
 * Waits until the tags bar has recorded a visit to `path` (the tagsView cookie). A page the browser
 * fetched ahead records its visit a round trip after it opens (decision 0046): a move made sooner
 * may show the tabs without it.
 */
export async function recorded(page: Page, path: string) {
  const tabs = async () => decodeURIComponent((await page.context().cookies()).find((c) => c.name === "tagsView")?.value ?? "");
  await expect.poll(tabs).toContain(path);
}

export const menu = (page: Page) => page.getByRole("navigation", { name: /.+/ }).first();

export async function expectTabs(page: Page, titles: string[]) {
  await expect(page.getByTestId("tag")).toHaveText(titles);
}

/** Marks a test (or describe) that needs JavaScript: the no-JS project does not schedule it at all. */
export const JS_ONLY = { tag: "@js-only" };

/** Every main kind of page a member opens, the demo researcher's own item, Space and conversation included (axe and the phone's width check each). */
export const MEMBER_PAGES = [
  "/home",
  "/discovery",
  "/retrieval?q=water",
  "/retrieval/detail?id=1",
  "/retrieval/detail?id=2",
  "/retrieval/detail?id=1&passage=1",
  "/retrieval/detail/version?id=1",
  "/retrieval/detail/edit?id=1",
  "/retrieval/detail/stats?id=1",
  "/upload",
  "/personal",
  "/personal?member=2",
  "/personal/Setting",
  "/personal/Setting?section=organisation&ror=Japan",
  "/personal/Setting?section=avatar",
  "/personal/Setting?section=account",
  "/personal/Setting?section=notifications",
  "/personal/verification",
  "/personal/notifications",
  "/message",
  "/message?conversation=1",
  "/liveStreaming",
  "/liveStreaming?schedule",
  "/home/rankingList",
  "/personal/ranking",
  "/personal/stats",
  "/personal/stats?range=12m&per=week",
];

/** A file from demo/ as a file input takes it. */
export const demo = (name: string) => ({
  name,
  mimeType: name.endsWith(".pdf") ? "application/pdf" : name.endsWith(".mp4") ? "video/mp4" : "image/png",
  buffer: readFileSync(`demo/${name}`),
});

/** Opens /upload and fills every field but the files. */
export async function fillUpload(page: Page, kind: "Document (PDF)" | "Video (MP4)", title: string) {
  await page.goto("/upload");
  await ready(page, test.info());
  await page.getByLabel(kind).check();
  await page.getByLabel("Goal").selectOption("6");
  await page.getByLabel("Title").fill(title);
  await page.getByLabel("Summary").fill("What we measured in twelve towns.");
  await page.getByLabel("Content").fill("Methods, results and what comes next.");
  await page.getByLabel("Keywords").fill("water, sanitation, towns");
  await page.getByLabel("Public: every member can see it").check();
}

/**
 * The download a click starts, told apart by its file's extension: without a PDF viewer, the
 * headless shell also downloads the PDF a detail page shows (at once without JavaScript).
 */
export async function downloaded(page: Page, extension: string, click: () => Promise<void>) {
  const [download] = await Promise.all([
    page.waitForEvent("download", { predicate: (file) => file.suggestedFilename().endsWith(extension) }),
    click(),
  ]);
  return download;
}

/** Logs out from the menu: the browser's dialog with JavaScript, the page's own question without. */
export async function logOut(page: Page) {
  const info = test.info();
  await ready(page, info);
  if (hasJs(info)) {
    page.once("dialog", (dialog) => dialog.accept());
    await page.getByTestId("logout").click();
  } else {
    await page.getByTestId("logout").click();
    await expect(page.getByText("Do you want to log out?")).toBeVisible();
    await page.getByRole("button", { name: "Log out" }).click();
  }
  await expect(page).toHaveURL(/\/login$/);
  await expect(page.getByTestId("toast")).toHaveText("You have logged out");
}

/** axe-core's WCAG 2.2 A and AA violations on the page, one line each (none: []). */
export async function axe(page: Page) {
  // Violations only: passes and the rest reduced to one node per rule, not every node sent back (same violations, less work).
  const { violations } = await new AxeBuilder({ page })
    .withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"])
    .options({ resultTypes: ["violations"] })
    .analyze();
  return violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`);
}

/**
 * The violations of the page as the server sends it (its HTML, scripts removed): what a browser
 * without JavaScript shows, checked in a page that can run axe itself.
 */
export async function servedViolations(page: Page, browser: Browser, path: string) {
  const html = (await (await page.request.get(path)).text()).replace(/<script\b[\s\S]*?<\/script>/g, "");
  // Scripts on for axe itself (the no-JavaScript project's contexts have them off).
  const served = await browser.newContext({ javaScriptEnabled: true });
  const plain = await served.newPage();
  await plain.setContent(html);
  const found = await axe(plain);
  await served.close();
  return found;
}

/**
 * An item uploaded by the member signed in on `request` and opened to anyone (decision 0049) under
 * CC BY, in English, with a year, a DOI and a co-author; `fields` changes any of it. Answers its id.
 */
export async function uploadOpen(request: APIRequestContext, origin: string, title: string, fields: Record<string, string> = {}) {
  const answer = await request.post("/upload", {
    headers: { Origin: origin },
    multipart: {
      kind: "document",
      sdg: "7",
      title,
      summary: "How twelve villages shared one solar grid.",
      content: "c",
      keywords: "solar, grids",
      publicize: "1",
      license: "CC-BY-4.0",
      open_record: "1",
      doi: "10.5555/solar.2021",
      year: "2021",
      authors: "Grace Hopper",
      language: "en",
      ...fields,
      file: demo("sample-document.pdf"),
      thumbnail: demo("sample-document-thumbnail.png"),
    },
    maxRedirects: 0,
  });
  expect(answer.status()).toBe(303);
  return Number(/id=(\d+)/.exec(answer.headers().location ?? "")?.[1]);
}

/** Deletes items of the member signed in on `request`: a spec's own items leave the shared feed to the specs that read it. */
export async function deleteItems(request: APIRequestContext, origin: string, ids: number[]) {
  for (const id of ids) {
    const answer = await request.post(`/retrieval/detail?id=${id}`, {
      headers: { Origin: origin },
      form: { intent: "delete", confirm: "1" },
      maxRedirects: 0,
    });
    expect(answer.status()).toBe(303);
  }
}

/** Another member in a browser context of their own, with the project's JavaScript setting. */
export async function otherMember(browser: Browser, name: string, account: Parameters<typeof signUpAndIn>[2] = {}) {
  const context = await browser.newContext({
    javaScriptEnabled: hasJs(test.info()),
    baseURL: test.info().project.use.baseURL,
    extraHTTPHeaders: { "CF-Connecting-IP": clientIp() },
  });
  const page = await context.newPage();
  return { page, ...(await signUpAndIn(page, name, account)), close: () => context.close() };
}

/** The demo reviewer decides on the submission of `nick`, in a browser of their own; `first` looks at or ticks what it shows. */
export async function reviewVerification(
  browser: Browser,
  nick: string,
  decision: "approve" | { reason: string },
  first: (submission: Locator) => Promise<void>,
) {
  const context = await browser.newContext({
    extraHTTPHeaders: { "CF-Connecting-IP": clientIp() },
    javaScriptEnabled: test.info().project.use.javaScriptEnabled,
  });
  const page = await context.newPage();
  await page.goto("/login");
  await signIn(page, "reviewer@demo.test");
  await open(page, test.info(), "/review");
  const submission = page.getByTestId("submission").filter({ hasText: nick });
  await first(submission);
  if (decision === "approve") await submission.getByRole("button", { name: "Approve" }).click();
  else {
    await submission.getByLabel("Reason").fill(decision.reason);
    await submission.getByRole("button", { name: "Reject" }).click();
  }
  await expect(page.getByTestId("toast")).toHaveText("Decision saved. The member was told.");
  await context.close();
}

/** An organisation's verification, posted as its form posts it (fields and the three photos), by the member signed in on `page`. */
export async function sendOrganisationVerification(page: Page, companyName: string) {
  const image = { name: "photo.png", mimeType: "image/png", buffer: Buffer.from(pngBytes(60, 40)) };
  const sent = await page.request.post("/personal/verification", {
    headers: { Origin: test.info().project.use.baseURL as string },
    multipart: {
      companyName,
      registrationNumber: "R-1",
      legalName: "Rep Resentative",
      legalIdNumber: "L-1",
      license: image,
      legalIdFront: image,
      legalIdBack: image,
    },
    maxRedirects: 0,
  });
  expect(sent.status()).toBe(303);
}
