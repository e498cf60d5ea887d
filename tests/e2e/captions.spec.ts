import webvtt from "node-webvtt";
import { expect, signUpAndIn, test } from "./fixtures";
import { axe, demo, fillUpload, hasJs, ready, servedViolations } from "./helpers";

// Issue 36, JavaScript on and off: upload a video with Japanese captions, find it by a word said at
// 0:03, follow the hit: with JavaScript the player is at 3 s with the track showing; without, the
// transcript's links carry #t=3 and the player's address starts it there. axe checks the page.

const KANJI_DIGITS = "〇一二三四五六七八九";

test("a video's Japanese captions find it at the second a word is said, and its page plays from there", async ({ page, browser }) => {
  const info = test.info();
  const stamp = String(Date.now()).slice(-6);
  // A word only this run's captions hold: "watershed" and the run's number in kanji.
  const word = `分水嶺${[...stamp].map((d) => KANJI_DIGITS[Number(d)]).join("")}`;
  const captions = `WEBVTT\n\n00:00:00.500 --> 00:00:02.500\nはじめに、調査の概要です\n\n00:00:03.000 --> 00:00:04.000\n<v 発表者>${word}の水質を測りました</v>\n`;
  await signUpAndIn(page, `Captioner ${stamp}`);
  await fillUpload(page, "Video (MP4)", `Wells ${stamp}`);
  // Private: the shared feed's first page stays the demo catalogue's for the other browser tests.
  await page.getByLabel("Private: only you can see it").check();
  await page.getByLabel("File", { exact: true }).setInputFiles(demo("sample-video.mp4"));
  await page.getByLabel("Thumbnail image").setInputFiles(demo("sample-video-thumbnail.png"));
  await page.getByLabel("Captions language").fill("ja");
  await page
    .getByLabel("Caption file (WebVTT)")
    .setInputFiles({ name: "talk.ja.vtt", mimeType: "text/vtt", buffer: Buffer.from(captions) });
  await page.getByRole("button", { name: "Upload", exact: true }).click();
  await expect(page).toHaveURL(/\/retrieval\/detail\?id=\d+$/);
  const id = Number(new URL(page.url()).searchParams.get("id"));

  // The file the player reads is WebVTT another parser reads, served from this origin as text/vtt.
  const served = await page.request.get(`/files/${id}/captions/ja.vtt`);
  expect(served.headers()["content-type"]).toBe("text/vtt; charset=utf-8");
  const parsed = webvtt.parse(await served.text(), { strict: true });
  expect(parsed.cues.map((cue) => [cue.start, cue.text])).toEqual([
    [0.5, "はじめに、調査の概要です"],
    [3, `${word}の水質を測りました`],
  ]);

  await page.goto(`/retrieval?tab=videos&q=${encodeURIComponent(word)}`);
  await ready(page, info);
  const passage = page.getByTestId("passage");
  await expect(passage).toHaveText(`At 0:03:${word}の水質を測りました`);
  await page
    .getByTestId("search-results")
    .getByRole("link", { name: `Wells ${stamp}` })
    .click();
  await expect(page).toHaveURL(new RegExp(`/retrieval/detail\\?id=${id}&t=3&lang=ja$`));
  await ready(page, info);

  const video = page.getByTestId("video");
  const transcript = page.getByTestId("transcript");
  await expect(transcript.getByRole("heading")).toHaveText("Transcript (Japanese)");
  await expect(transcript.getByRole("listitem")).toHaveText(["0:00はじめに、調査の概要です", `0:03${word}の水質を測りました`]);
  await expect(transcript.getByRole("link", { name: "0:03" })).toHaveAttribute("href", `/retrieval/detail?id=${id}&lang=ja&t=3#t=3`);
  await expect(video).toHaveAttribute("src", `/files/${id}#t=3`);
  await expect(video.locator("track")).toHaveAttribute("srclang", "ja");
  if (hasJs(info)) {
    // The player starts at the second said, with the Japanese track showing.
    await expect.poll(() => video.evaluate((v: HTMLVideoElement) => Math.round(v.currentTime))).toBe(3);
    await expect
      .poll(() => video.evaluate((v: HTMLVideoElement) => [v.textTracks[0]?.language, v.textTracks[0]?.mode]))
      .toEqual(["ja", "showing"]);
    // Its cues loaded from the platform's origin (the page's policy allows media from 'self').
    await expect.poll(() => video.evaluate((v: HTMLVideoElement) => v.textTracks[0]?.cues?.length ?? 0)).toBe(2);
    // A transcript line seeks the player in place, without loading the page again.
    await video.evaluate((v: HTMLVideoElement) => {
      v.muted = true;
      v.dataset.kept = "1";
    });
    await transcript.getByRole("link", { name: "0:00" }).click();
    await expect.poll(() => video.evaluate((v: HTMLVideoElement) => v.currentTime < 3)).toBe(true);
    await expect(video).toHaveAttribute("data-kept", "1");
    await expect(page).toHaveURL(/&t=0#t=0$/);
  } else {
    // Without JavaScript the link loads the page with the player's address starting at that second.
    await transcript.getByRole("link", { name: "0:00" }).click();
    await expect(page).toHaveURL(/&t=0#t=0$/);
    await expect(page.getByTestId("video")).toHaveAttribute("src", `/files/${id}#t=0`);
  }

  // axe runs in the page: without JavaScript, on the page as the server sent it, in a page that runs it.
  expect(
    hasJs(info) ? await axe(page) : await servedViolations(page, browser, new URL(page.url()).pathname + new URL(page.url()).search),
  ).toEqual([]);
});

test("the owner adds, replaces and removes captions on the video's captions page; a broken file is refused with its line", async ({
  page,
  browser,
}) => {
  const info = test.info();
  const stamp = String(Date.now()).slice(-6);
  await signUpAndIn(page, `Caption owner ${stamp}`);
  await fillUpload(page, "Video (MP4)", `Rivers ${stamp}`);
  await page.getByLabel("Private: only you can see it").check();
  await page.getByLabel("File", { exact: true }).setInputFiles(demo("sample-video.mp4"));
  await page.getByLabel("Thumbnail image").setInputFiles(demo("sample-video-thumbnail.png"));
  await page.getByRole("button", { name: "Upload", exact: true }).click();
  await expect(page).toHaveURL(/\/retrieval\/detail\?id=\d+$/);
  await ready(page, info);

  await page.getByTestId("manage-captions").click();
  await expect(page).toHaveURL(/\/retrieval\/detail\/captions\?id=\d+$/);
  await ready(page, info);
  const section = page.getByTestId("captions");
  await expect(section).toContainText("No captions yet.");
  const path = new URL(page.url()).pathname + new URL(page.url()).search;
  expect(hasJs(info) ? await axe(page) : await servedViolations(page, browser, path)).toEqual([]);
  await section.getByLabel("Captions language").fill("en");
  const vtt = (text: string) => ({ name: "c.vtt", mimeType: "text/vtt", buffer: Buffer.from(text) });
  await section
    .getByLabel("Caption file (WebVTT)")
    .setInputFiles(vtt("WEBVTT\n\n00:00:01.000 --> 00:00:02.000\nfine\n\n00:00:03.000 -> 00:00:04.000\nbroken\n"));
  await section.getByRole("button", { name: "Save captions" }).click();
  await expect(page.getByTestId("error-captions")).toContainText("not valid WebVTT at line 7");

  await page.getByTestId("captions").getByLabel("Captions language").fill("en");
  await page
    .getByTestId("captions")
    .getByLabel("Caption file (WebVTT)")
    .setInputFiles(vtt("WEBVTT\n\n00:00:01.000 --> 00:00:02.000\nThe river rises\n"));
  await page.getByTestId("captions").getByRole("button", { name: "Save captions" }).click();
  // Saved, the video's page shows them.
  await expect(page.getByTestId("toast")).toHaveText("The captions are saved.");
  await expect(page).toHaveURL(/\/retrieval\/detail\?id=\d+&lang=en$/);
  await expect(page.getByTestId("transcript").getByRole("listitem")).toHaveText(["0:01The river rises"]);

  await ready(page, info);
  await page.getByTestId("manage-captions").click();
  await expect(page.getByTestId("captions")).toContainText("English (en) · 1 cue");
  await page.getByTestId("captions").getByRole("button", { name: "Remove the English captions" }).click();
  await expect(page.getByTestId("toast")).toHaveText("The captions are removed.");
  await expect(page.getByTestId("captions")).toContainText("No captions yet.");
  await page.getByRole("link", { name: "Back to the video" }).click();
  await expect(page.getByTestId("transcript")).toHaveCount(0);
});
