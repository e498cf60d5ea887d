import { readFileSync } from "node:fs";
import { FULL_CHROMIUM } from "../../playwright.config";
import { expect, signIn, test } from "./fixtures";
import { demo, fillUpload } from "./helpers";

// Chromium's own PDF viewer is the full browser's (the headless shell the other specs use has none).
test.use({ launchOptions: FULL_CHROMIUM });

test.beforeEach(async ({ page }) => {
  await signIn(page);
});

test("member files are served sandboxed, so a polyglot runs nothing, and a PDF still shows in the viewer", async ({ page }) => {
  // HTML in a comment right after a valid PDF header: still a PDF, and a page to a browser that sniffs.
  const pdf = readFileSync("demo/sample-document.pdf");
  const headerEnd = pdf.indexOf(10) + 1;
  const polyglot = Buffer.concat([
    pdf.subarray(0, headerEnd),
    Buffer.from("%<html><body><script>document.title = 'ran'; alert(document.cookie)</script></body></html>\n"),
    pdf.subarray(headerEnd),
  ]);
  await fillUpload(page, "Document (PDF)", `Polyglot ${Date.now()}`);
  await page.getByLabel("File", { exact: true }).setInputFiles({ name: "paper.pdf", mimeType: "application/pdf", buffer: polyglot });
  await page.getByLabel("Thumbnail image").setInputFiles(demo("sample-document-thumbnail.png"));
  await page.getByRole("button", { name: "Upload", exact: true }).click();
  await expect(page).toHaveURL(/\/retrieval\/detail\?id=\d+$/);
  const src = (await page.getByTestId("pdf-viewer").getAttribute("src")) ?? "";
  // Chromium's own PDF viewer opens inside the frame, sandbox or not.
  await expect.poll(() => page.frames().some((frame) => frame.url().startsWith("chrome-extension://"))).toBe(true);

  for (const path of [src, `${src}/thumbnail`]) {
    const policy = (await page.request.get(path)).headers()["content-security-policy"] ?? "";
    expect(policy.split(/;\s*/)).toEqual(expect.arrayContaining(["sandbox", "default-src 'none'", "frame-ancestors 'self'"]));
  }
  let dialogs = 0;
  page.on("dialog", (dialog) => {
    dialogs++;
    return dialog.dismiss();
  });
  await page.goto(src);
  await expect.poll(() => page.frames().some((frame) => frame.url().startsWith("chrome-extension://"))).toBe(true);
  expect(await page.title()).not.toBe("ran");
  expect(dialogs).toBe(0);
});
