import { readFileSync } from "node:fs";
import type { APIRequestContext, Page } from "@playwright/test";
import { makePdf } from "../../scripts/make-pdf.mjs";
import { expect, signUpAndIn, test } from "./fixtures";
import { deleteItems, hasJs, JS_ONLY, otherMember, ready } from "./helpers";

// Comments on a passage (issue 51), with JavaScript on and off: quote a sentence the PDF breaks
// across lines (selected in the pdf.js view, or typed), be refused a quote the page does not
// hold, follow the quote to its page, private feedback only the owner sees, and a new version that
// keeps one quote and marks another. The PDFs are real, printed by Chromium (tests/fixtures/pdf).

const FIXTURES = "tests/fixtures/pdf";
const pages = JSON.parse(readFileSync(`${FIXTURES}/pages.json`, "utf8")) as Record<
  string,
  {
    acrossLines: { page: number; exact: string };
    notOnPage: { page: number; exact: string };
    japaneseQuote?: { page: number; exact: string };
  }
>;
const english = pages["english.pdf"] as (typeof pages)[string];
const japanese = pages["japanese.pdf"] as (typeof pages)[string];
const squeezed = (text: string | null) => (text ?? "").replace(/\s/g, "");

/** A public document uploaded by the member signed in on `request`, its text read: its id. */
async function uploaded(page: Page, request: APIRequestContext, file: string, title: string) {
  const origin = test.info().project.use.baseURL as string;
  const answer = await request.post("/upload", {
    headers: { Origin: origin },
    multipart: {
      kind: "document",
      sdg: "6",
      title,
      summary: "Tanks, roofs and what the water tasted like.",
      content: "c",
      keywords: "rainwater",
      publicize: "1",
      license: "CC-BY-4.0",
      language: file.startsWith("japanese") ? "ja" : "en",
      file: { name: file, mimeType: "application/pdf", buffer: readFileSync(`${FIXTURES}/${file}`) },
      thumbnail: { name: "t.png", mimeType: "image/png", buffer: readFileSync("demo/sample-document-thumbnail.png") },
    },
    maxRedirects: 0,
  });
  expect(answer.status()).toBe(303);
  const id = Number(/id=(\d+)/.exec(answer.headers().location ?? "")?.[1]);
  // The owner sees when the text job has read the pages (the queue runs in the background).
  await expect(async () => {
    await page.goto(`/retrieval/detail?id=${id}`);
    await expect(page.getByTestId("text-state")).toHaveText("Search finds this document by its text: all 3 pages.");
  }).toPass({ timeout: 60_000 });
  return id;
}

/** Selects `words` in the pdf.js text layer shown, as a member's drag would, and lets go. */
async function selectWords(page: Page, words: string) {
  await page.getByTestId("text-layer").evaluate((layer, wanted) => {
    const nodes: Text[] = [];
    const walker = document.createTreeWalker(layer, NodeFilter.SHOW_TEXT);
    while (walker.nextNode()) nodes.push(walker.currentNode as Text);
    // Where each character (spaces aside) stands, to find the words across the spans.
    const places: [Text, number][] = [];
    for (const node of nodes) for (let i = 0; i < node.data.length; i++) if (!/\s/.test(node.data[i] ?? "")) places.push([node, i]);
    const letters = places.map(([node, i]) => node.data[i]).join("");
    const at = letters.indexOf(wanted.replace(/\s/g, ""));
    const first = places[at];
    const last = places[at + wanted.replace(/\s/g, "").length - 1];
    if (at < 0 || !first || !last) throw new Error(`"${wanted}" is not in the text layer`);
    const range = document.createRange();
    range.setStart(first[0], first[1]);
    range.setEnd(last[0], last[1] + 1);
    const selection = window.getSelection();
    selection?.removeAllRanges();
    selection?.addRange(range);
    layer.dispatchEvent(new MouseEvent("mouseup", { bubbles: true }));
  }, words);
}

const comment = (page: Page, words: string) => page.getByTestId("comments").locator("li", { hasText: words }).first();

test("comment on a passage, follow it, reply in private, and a new version keeps one quote", async ({ page, browser }) => {
  const info = test.info();
  const js = hasJs(info);
  const owner = await signUpAndIn(page, `Passage Owner ${Date.now()}`);
  const id = await uploaded(page, page.request, "english.pdf", `Rainwater passages ${info.project.name} ${Date.now()}`);
  const reviewer = await otherMember(browser, `Passage Reviewer ${Date.now()}`);
  const bystander = await otherMember(browser, `Passage Bystander ${Date.now()}`);
  const at = `/retrieval/detail?id=${id}`;
  try {
    const { page: r } = reviewer;
    await r.goto(at);
    await ready(r, info);
    await r.getByRole("link", { name: "Comment on a passage" }).click();
    await ready(r, info);
    if (js) {
      // The quoting view: the page field turns the pages, and selected words fill the quote.
      await expect(r.getByTestId("text-layer")).toBeVisible();
      await r.getByLabel("Page number").fill("2");
      await r.getByLabel("Page number").press("Tab");
      await expect(r.locator("[data-passage-pages] [data-page='2'] [data-testid=text-layer]")).toBeVisible();
      await selectWords(r, english.acrossLines.exact);
      await expect(r.getByLabel("Words quoted from that page")).toHaveValue(english.acrossLines.exact);
    } else {
      await r.getByLabel("Page number").fill("2");
      // Typed as one line: the page breaks it in two places.
      await r.getByLabel("Words quoted from that page").fill(english.acrossLines.exact);
    }
    await r.getByLabel("Add a comment").fill("Which roofs were metal?");
    await r.getByRole("button", { name: "Post" }).click();
    const first = comment(r, "Which roofs were metal?");
    await expect(first.getByTestId("comment-quote")).toContainText(english.acrossLines.exact);
    await expect(first.getByRole("link", { name: "Page 2" })).toHaveAttribute("href", `/files/${id}#page=2`);

    // Words the page does not hold are refused in the member's words, and what was typed stays.
    await r.getByRole("link", { name: "Comment on a passage" }).click();
    await r.getByLabel("Page number").fill(String(english.notOnPage.page));
    await r.getByLabel("Words quoted from that page").fill(english.notOnPage.exact);
    await r.getByLabel("Add a comment").fill("Only boiling?");
    await r.getByRole("button", { name: "Post" }).click();
    await expect(r.getByTestId("error-quote")).toHaveText("Page 1 does not have these words. Copy them as the page shows them.");
    await expect(r.getByLabel("Words quoted from that page")).toHaveValue(english.notOnPage.exact);
    await r.getByLabel("Page number").fill("2");
    await r.getByRole("button", { name: "Post" }).click();
    await expect(comment(r, "Only boiling?").getByRole("link", { name: "Page 2" })).toBeVisible();

    // Following a quote: with JavaScript its page opens under it, the words marked; without, the PDF at that page.
    if (js) {
      await first.getByRole("link", { name: "Page 2" }).click();
      const marks = first.getByTestId("quote-highlight");
      await expect(marks.first()).toBeVisible();
      expect(squeezed((await marks.allTextContents()).join(""))).toBe(squeezed(english.acrossLines.exact));
    } else {
      const file = await r.request.get(`/files/${id}`);
      expect([file.status(), file.headers()["content-type"]]).toEqual([200, "application/pdf"]);
    }

    // Private feedback: the owner and its author see it and its replies; nobody else does.
    await r.getByLabel("Add a comment").fill("Private: table 2 lacks units.");
    await r.getByTestId("private-feedback").check();
    await r.getByRole("button", { name: "Post" }).click();
    await expect(comment(r, "table 2 lacks units").getByTestId("private-comment")).toHaveText("Private feedback");
    await bystander.page.goto(at);
    await expect(comment(bystander.page, "Which roofs were metal?")).toBeVisible();
    await expect(bystander.page.getByText("table 2 lacks units")).toHaveCount(0);
    await page.goto(at);
    await ready(page, info);
    await comment(page, "table 2 lacks units").getByRole("link", { name: "Reply" }).click();
    await page.getByLabel("Add a comment").fill("Thanks, units added in the next version.");
    await page.getByRole("button", { name: "Post" }).click();
    await expect(page.getByText("Thanks, units added in the next version.")).toBeVisible();
    await r.goto(at);
    await expect(r.getByText("Thanks, units added in the next version.")).toBeVisible();
    await bystander.page.goto(at);
    await expect(bystander.page.getByText("Thanks, units added")).toHaveCount(0);

    // A new version that still holds the first sentence (now on page 1) and not the second.
    const version = makePdf([
      ["Households with metal roofs reported fewer", "complaints about taste and colour than those", "with old clay tiles."],
      ["Filters replaced boiling in most homes."],
    ]);
    const added = await page.request.post(`/api/contents/${id}/versions`, {
      headers: { Authorization: `Bearer ${owner.token}` },
      multipart: { note: "Units added", file: { name: "v2.pdf", mimeType: "application/pdf", buffer: Buffer.from(version) } },
    });
    expect(added.status()).toBe(201);
    await expect(async () => {
      await r.goto(at);
      await expect(comment(r, "Which roofs were metal?").getByRole("link", { name: "Page 1" })).toBeVisible({ timeout: 1000 });
    }).toPass({ timeout: 60_000 });
    const moved = comment(r, "Only boiling?");
    await expect(moved.getByTestId("earlier-version")).toHaveText("· On an earlier version (version 1)");
    await expect(moved.getByRole("link", { name: "Page 2" })).toHaveAttribute("href", `/files/${id}?version=1#page=2`);
  } finally {
    await reviewer.close();
    await bystander.close();
    await deleteItems(page.request, info.project.use.baseURL as string, [id]);
  }
});

test("a saved quote is found again on pdf.js's text layer and exactly its words are marked", JS_ONLY, async ({ page }) => {
  const info = test.info();
  const owner = await signUpAndIn(page, `Quote Marker ${Date.now()}`);
  const ids: number[] = [];
  try {
    for (const [file, quotes] of [
      ["english.pdf", [english.acrossLines, english.notOnPage]],
      ["japanese.pdf", [japanese.acrossLines, japanese.notOnPage, japanese.japaneseQuote]],
    ] as const) {
      const id = await uploaded(page, page.request, file, `Marked ${file} ${Date.now()}`);
      ids.push(id);
      for (const [n, quote] of quotes.entries()) {
        if (!quote) continue;
        // notOnPage's words are on another page: the comment names that one.
        const where = quote === english.notOnPage || quote === japanese.notOnPage ? 2 : quote.page;
        const posted = await page.request.post(`/api/contents/${id}/comments`, {
          headers: { Authorization: `Bearer ${owner.token}` },
          data: { body: `Note ${n}`, page: where, quote: quote.exact },
        });
        expect(posted.status()).toBe(201);
      }
      await page.goto(`/retrieval/detail?id=${id}`);
      await ready(page, info);
      for (const [n, quote] of quotes.entries()) {
        if (!quote) continue;
        const note = comment(page, `Note ${n}`);
        await note.getByTestId("comment-quote").getByRole("link").click();
        const marks = note.getByTestId("quote-highlight");
        await expect(marks.first()).toBeVisible();
        expect(squeezed((await marks.allTextContents()).join("")), `${file}: ${quote.exact}`).toBe(squeezed(quote.exact));
        // Over the drawn page: the text layer is styled as pdf.js's viewer styles it, each mark inside the page.
        const [sheet, mark] = await Promise.all([note.locator("[data-page]").boundingBox(), marks.first().boundingBox()]);
        expect(await marks.first().evaluate((m) => getComputedStyle(m.parentElement as Element).position)).toBe("absolute");
        expect(mark && sheet && mark.y >= sheet.y && mark.y + mark.height <= sheet.y + sheet.height).toBe(true);
      }
    }
  } finally {
    await deleteItems(page.request, info.project.use.baseURL as string, ids);
  }
});

test("a comment on a moment of a video: from the transcript or typed, and its link plays from there", async ({ page }) => {
  const info = test.info();
  await signUpAndIn(page, `Moment Owner ${Date.now()}`);
  const captions =
    "WEBVTT\n\n00:00:00.500 --> 00:00:02.500\nFirst we walked to the wells.\n\n00:00:03.000 --> 00:00:04.000\nThe second well was dry.\n";
  const answer = await page.request.post("/upload", {
    headers: { Origin: info.project.use.baseURL as string },
    multipart: {
      kind: "video",
      sdg: "6",
      title: `Wells walk ${Date.now()}`,
      summary: "A walk along the wells.",
      content: "c",
      keywords: "wells",
      // Private: the shared feed's first page stays the demo catalogue's for the other browser tests.
      publicize: "0",
      license: "CC-BY-4.0",
      language: "en",
      captions_lang: "en",
      captions: { name: "walk.vtt", mimeType: "text/vtt", buffer: Buffer.from(captions) },
      file: { name: "walk.mp4", mimeType: "video/mp4", buffer: readFileSync("demo/sample-video.mp4") },
      thumbnail: { name: "t.png", mimeType: "image/png", buffer: readFileSync("demo/sample-video-thumbnail.png") },
    },
    maxRedirects: 0,
  });
  expect(answer.status()).toBe(303);
  const id = Number(/id=(\d+)/.exec(answer.headers().location ?? "")?.[1]);
  try {
    await page.goto(`/retrieval/detail?id=${id}`);
    await page.getByRole("link", { name: "Comment on a passage" }).click();
    await ready(page, info);
    if (hasJs(info)) {
      // Selecting a line of the transcript makes it the comment's moment, once the part that reads it is there.
      await expect(page.locator("[data-passage][data-ready]")).toBeAttached();
      await page
        .getByTestId("transcript")
        .getByText("The second well was dry.")
        .evaluate((line) => {
          const range = document.createRange();
          range.selectNodeContents(line);
          window.getSelection()?.removeAllRanges();
          window.getSelection()?.addRange(range);
          line.dispatchEvent(new MouseEvent("mouseup", { bubbles: true }));
        });
      // The last line: its moment runs on from its second.
      await expect(page.getByLabel("From (m:ss)")).toHaveValue("0:03");
      await expect(page.getByLabel("Until (optional)")).toHaveValue("");
    } else {
      await page.getByLabel("From (m:ss)").fill("0:03");
      await page.getByLabel("Until (optional)").fill("0:04");
    }
    await page.getByLabel("Add a comment").fill("Dry since when?");
    await page.getByRole("button", { name: "Post" }).click();
    const [name, fragment] = hasJs(info) ? ["At 0:03", "t=3"] : ["At 0:03–0:04", "t=3,4"];
    const moment = comment(page, "Dry since when?").getByRole("link", { name, exact: true });
    await expect(moment).toHaveAttribute("href", `/retrieval/detail?id=${id}&t=3#${fragment}`);
    await moment.click();
    const video = page.getByTestId("video");
    if (hasJs(info)) await expect.poll(() => video.evaluate((v: HTMLVideoElement) => Math.round(v.currentTime))).toBe(3);
    else await expect(video).toHaveAttribute("src", `/files/${id}#t=3`);
  } finally {
    await deleteItems(page.request, info.project.use.baseURL as string, [id]);
  }
});
