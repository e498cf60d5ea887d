import { readFileSync } from "node:fs";
import { expect, signIn, test } from "./fixtures";
import { demo, fillUpload, hasJs, JS_ONLY, ready } from "./helpers";

test.beforeEach(async ({ page }) => {
  await signIn(page);
});

test("upload a PDF with a thumbnail and read it inline", async ({ page }) => {
  const title = `Water study ${Date.now()}`;
  await fillUpload(page, "Document (PDF)", title);
  await page.getByLabel("File", { exact: true }).setInputFiles(demo("sample-document.pdf"));
  await page.getByLabel("Thumbnail image").setInputFiles(demo("sample-document-thumbnail.png"));
  await page.getByRole("button", { name: "Upload", exact: true }).click();
  await expect(page).toHaveURL(/\/retrieval\/detail\?id=\d+$/);
  await expect(page.getByTestId("toast")).toHaveText("Uploaded");
  await expect(page.getByTestId("content-title")).toHaveText(title);
  await expect(page.getByTestId("sdg")).toHaveText("6. Clean Water and Sanitation");
  // The owner's own open is not a view (decision 0039).
  await expect(page.getByTestId("views")).toHaveText("0 views");
  const viewer = page.getByTestId("pdf-viewer");
  const src = await viewer.getAttribute("src");
  expect(src).toMatch(/^\/files\/\d+$/);
  const file = await page.request.get(src ?? "");
  expect(file.headers()["content-type"]).toBe("application/pdf");
  expect(file.headers()["content-disposition"]).toMatch(/^inline; filename="research-\d+\.pdf"$/);
  expect(Buffer.from(await file.body())).toEqual(readFileSync("demo/sample-document.pdf"));
  await expect(page.getByTestId("download")).toHaveAttribute("href", `${src}?download`);
});

test("upload an MP4 with a thumbnail, play it and seek", async ({ page }) => {
  const title = `Town video ${Date.now()}`;
  await fillUpload(page, "Video (MP4)", title);
  await page.getByLabel("File", { exact: true }).setInputFiles(demo("sample-video.mp4"));
  await page.getByLabel("Thumbnail image").setInputFiles(demo("sample-video-thumbnail.png"));
  await page.getByRole("button", { name: "Upload", exact: true }).click();
  await expect(page).toHaveURL(/\/retrieval\/detail\?id=\d+$/);
  const video = page.getByTestId("video");
  const src = await video.getAttribute("src");
  await expect(video).toHaveAttribute("poster", `${src}/thumbnail?w=800`);
  const range = await page.request.get(src ?? "", { headers: { Range: "bytes=0-99" } });
  expect(range.status()).toBe(206);
  expect((await range.body()).length).toBe(100);
  if (hasJs(test.info())) {
    const seeked = await video.evaluate(async (element: HTMLVideoElement) => {
      element.muted = true;
      await element.play();
      await new Promise((resolve) => {
        element.addEventListener("seeked", resolve, { once: true });
        element.currentTime = 3;
      });
      return element.currentTime;
    });
    expect(seeked).toBeGreaterThanOrEqual(2.9);
  }
});

test("a file that is not PDF or MP4 is refused with the spec's message and nothing kept", async ({ page }) => {
  await fillUpload(page, "Document (PDF)", "Not really a PDF");
  await page
    .getByLabel("File", { exact: true })
    .setInputFiles({ name: "paper.pdf", mimeType: "application/pdf", buffer: readFileSync("demo/sample-document-thumbnail.png") });
  await page.getByLabel("Thumbnail image").setInputFiles(demo("sample-document-thumbnail.png"));
  await page.getByRole("button", { name: "Upload", exact: true }).click();
  await expect(page.getByTestId("error-file")).toHaveText("Only PDF or MP4 files can be uploaded");
  await expect(page).toHaveURL(/\/upload$/);
});

test("every field is required, with translated messages beside each", async ({ page }) => {
  await page.goto("/upload");
  await ready(page, test.info());
  await page.getByLabel("Title").fill("Only a title");
  await page.getByRole("button", { name: "Upload", exact: true }).click();
  await expect(page.getByTestId("error-summary")).toHaveText("Summary cannot be empty");
  await expect(page.getByTestId("error-keywords")).toHaveText("Keywords cannot be empty");
  await expect(page.getByLabel("Title")).toHaveValue("Only a title");
  // The server judges every field, so the first submit shows every message, with JavaScript or without.
  await expect(page.getByTestId("error-file")).toHaveText("File cannot be empty");
  await expect(page.getByTestId("error-thumbnail")).toHaveText("Thumbnail image cannot be empty");
});

test("the owner edits the details and deletes the item, which removes its files", async ({ page }) => {
  await fillUpload(page, "Document (PDF)", `To edit ${Date.now()}`);
  await page.getByLabel("File", { exact: true }).setInputFiles(demo("sample-document.pdf"));
  await page.getByLabel("Thumbnail image").setInputFiles(demo("sample-document-thumbnail.png"));
  await page.getByRole("button", { name: "Upload", exact: true }).click();
  await expect(page).toHaveURL(/\/retrieval\/detail\?id=\d+$/);
  const src = (await page.getByTestId("pdf-viewer").getAttribute("src")) ?? "";

  // The details are edited on a page of their own, which starts from them.
  await page.getByTestId("edit-link").click();
  await expect(page).toHaveURL(/\/retrieval\/detail\/edit\?id=\d+$/);
  await expect(page.getByTestId("edit").getByLabel("Title")).toHaveValue(/^To edit \d+$/);
  await page.getByTestId("edit").getByLabel("Title").fill("A better title");
  await page.getByTestId("edit").getByLabel("Private: only you can see it").check();
  await page.getByRole("button", { name: "Save" }).click();
  await expect(page).toHaveURL(/\/retrieval\/detail\?id=\d+$/);
  await expect(page.getByTestId("toast")).toHaveText("Update Success");
  await expect(page.getByTestId("content-title")).toHaveText("A better title");
  await expect(page.getByText("Private", { exact: true })).toBeVisible();

  await ready(page, test.info());
  if (hasJs(test.info())) {
    page.once("dialog", (dialog) => dialog.accept());
    await page.getByTestId("delete").click();
  } else {
    await page.getByTestId("delete").click();
    await expect(page.getByTestId("delete-question")).toBeVisible();
    await page.getByTestId("delete").click();
  }
  await expect(page).toHaveURL(/\/upload$/);
  await expect(page.getByTestId("toast")).toHaveText("Deleted");
  expect((await page.request.get(src)).status()).toBe(404);
});

test.describe("with JavaScript", JS_ONLY, () => {
  test("a large upload shows progress, survives a dropped connection and resumes", async ({ page }) => {
    const video = readFileSync("demo/sample-video.mp4");
    const big = Buffer.alloc(9 * 1024 * 1024 + 321);
    video.copy(big, 0);
    let dropped = 0;
    await page.route("**/uploads/*/parts/2", async (route) => {
      if (dropped++ === 0) return route.abort("connectionreset");
      return route.continue();
    });
    await fillUpload(page, "Video (MP4)", `Big video ${Date.now()}`);
    await page.getByLabel("File", { exact: true }).setInputFiles({ name: "big.mp4", mimeType: "video/mp4", buffer: big });
    await page.getByLabel("Thumbnail image").setInputFiles(demo("sample-video-thumbnail.png"));
    await page.getByRole("button", { name: "Upload", exact: true }).click();
    await expect(page.getByTestId("upload-progress")).toBeVisible();
    await expect(page).toHaveURL(/\/retrieval\/detail\?id=\d+$/, { timeout: 20_000 });
    expect(dropped).toBeGreaterThanOrEqual(2);
    const src = await page.getByTestId("video").getAttribute("src");
    const head = await page.request.get(src ?? "", { headers: { Range: "bytes=0-0" } });
    expect(head.headers()["content-range"]).toBe(`bytes 0-0/${big.length}`);
  });

  test("what sends a file in parts comes when a file is chosen, cached for good, not with the page", async ({ page }) => {
    await page.goto("/upload");
    await ready(page, test.info());
    expect(await page.locator("#module-uploads").textContent()).not.toContain("/complete");
    const part = page.waitForResponse((response) => /\/enhance\/chunked-upload\.[0-9a-f]+\.js$/.test(response.url()));
    await page.getByLabel("File", { exact: true }).setInputFiles(demo("sample-document.pdf"));
    const answer = await part;
    expect([answer.status(), answer.headers()["cache-control"]]).toEqual([200, "public, max-age=31536000, immutable"]);
    expect(await answer.text()).toContain("/complete");
  });

  test("cancel stops an upload in flight and the server drops it", async ({ page }) => {
    // The first part is held in flight until the cancel has been pressed.
    let release = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    await page.route("**/uploads/*/parts/1", async (route) => {
      await held;
      await route.continue().catch(() => {});
    });
    await fillUpload(page, "Video (MP4)", "To cancel");
    await page.getByLabel("File", { exact: true }).setInputFiles(demo("sample-video.mp4"));
    await page.getByLabel("Thumbnail image").setInputFiles(demo("sample-video-thumbnail.png"));
    const started = page.waitForResponse((r) => r.url().endsWith("/uploads") && r.request().method() === "POST");
    await page.getByRole("button", { name: "Upload", exact: true }).click();
    const { id } = await (await started).json();
    await expect(page.getByTestId("upload-progress")).toBeVisible();
    await page.getByRole("button", { name: "Cancel" }).click();
    await expect(page.getByTestId("upload-progress")).toBeHidden();
    release();
    await expect(page.getByRole("button", { name: "Upload", exact: true })).toBeVisible();
    await expect.poll(async () => (await page.request.get(`/uploads/${id}`)).status()).toBe(404);
    await expect(page).toHaveURL(/\/upload$/);
  });
});

test("on a phone an item's page links to its PDF instead of framing it, unless the page has no script", async ({ page }) => {
  const files: string[] = [];
  page.on("request", (request) => {
    if (new URL(request.url()).pathname.startsWith("/files/") && request.resourceType() !== "image") files.push(request.url());
  });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto("/retrieval/detail?id=1");
  await ready(page, test.info());
  await expect(page.getByTestId("open-pdf")).toBeVisible();
  await expect(page.getByTestId("download")).toBeVisible();
  if (hasJs(test.info())) {
    await page.waitForLoadState("load"); // when the module would open the viewer
    // Nothing fetched the file: a member on a slow network pays for it when they open it.
    await expect(page.getByTestId("pdf-viewer")).toHaveCount(0);
    expect(files).toEqual([]);
  } else await expect(page.getByTestId("pdf-viewer")).toBeVisible();
});
