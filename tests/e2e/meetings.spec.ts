import type { Page } from "@playwright/test";
import { expect, signUpAndIn, test, uniqueEmail } from "./fixtures";
import { hasJs, JS_ONLY, open } from "./helpers";

// The host's browser is in Berlin; the guest's in UTC (the default).
test.use({ timezoneId: "Europe/Berlin" });

// Meetings on Jitsi (the default provider). The machine has no internet: requests to the provider
// are refused here, so with JavaScript the join page falls back from the iframe API to a plain frame.

/** A wall-clock time `minutes` from now in `zone`, as a datetime-local value. */
function wallClock(minutes: number, zone: string) {
  const parts = new Intl.DateTimeFormat("en-CA", {
    timeZone: zone,
    hourCycle: "h23",
    year: "numeric",
    month: "2-digit",
    day: "2-digit",
    hour: "2-digit",
    minute: "2-digit",
  }).formatToParts(Date.now() + minutes * 60_000);
  const part = (type: string) => parts.find((p) => p.type === type)?.value;
  return `${part("year")}-${part("month")}-${part("day")}T${part("hour")}:${part("minute")}`;
}

/** The local outbox's mail to `email`, once at least one is there (queued mail arrives a moment later). */
async function mailTo(page: Page, email: string) {
  const mails = page.getByTestId("mail").filter({ has: page.getByTestId("mail-to").getByText(email, { exact: true }) });
  await expect(async () => {
    await page.goto("/dev/mail");
    expect(await mails.count()).toBeGreaterThan(0);
  }).toPass();
  return mails;
}

async function fillMeeting(page: Page, values: { title: string; emails: string; guest?: string; start?: string }) {
  const form = page.getByTestId("meeting-form");
  const zone = form.getByLabel("Time zone", { exact: true });
  // Without script the form lists one region's zones, and another region's come with its next answer;
  // with it, the meetings module lists them all.
  if (!hasJs(test.info()) && (await zone.locator('option[value="Asia/Tokyo"]').count()) === 0) {
    await zone.selectOption("region:Asia");
    await form.getByRole("button", { name: /^(Schedule|Save changes)$/ }).click();
    await expect(page.getByTestId("error-timeZone")).toHaveText("Now choose a time zone in Asia.");
  }
  await form.getByLabel("Title").fill(values.title);
  await form.getByLabel("Agenda").fill("1. Findings\n2. Next steps");
  await form.getByLabel("Start time").fill(values.start ?? wallClock(5, "Asia/Tokyo"));
  await form.getByLabel("Time zone", { exact: true }).selectOption("Asia/Tokyo");
  await form.getByLabel("Duration (minutes)").fill("30");
  await form.getByLabel("Emails").fill(values.emails);
  if (values.guest) await form.getByRole("group", { name: "Members" }).getByLabel(values.guest).check();
}

test("a host schedules, edits and cancels a meeting; the invited member sees it in their own zone and joins; a stranger gets 404", async ({
  page,
  browser,
}, info) => {
  const guestPage = await browser.newContext({ javaScriptEnabled: hasJs(info) }).then((context) => context.newPage());
  const guestName = `Guest ${Date.now()}`;
  const guest = await signUpAndIn(guestPage, guestName);
  const hostMember = await signUpAndIn(page, "Meeting Host");
  const follow = await page.request.post(`/api/users/${guest.id}/follow`, { headers: { Authorization: `Bearer ${hostMember.token}` } });
  expect(follow.ok()).toBe(true);
  const [ada, grace] = [uniqueEmail("ada"), uniqueEmail("grace")];

  // The list a member opens to join carries no form (its 400 zones would double the page); a link leads to it.
  await open(page, info, "/liveStreaming");
  await expect(page.getByTestId("meeting-form")).toHaveCount(0);
  await page.getByTestId("schedule-meeting").click();
  await expect(page).toHaveURL(/\/liveStreaming\?schedule$/);
  await fillMeeting(page, { title: "Aquifer sync", emails: `${ada}, ${grace}, ${ada}`, guest: guestName });
  await page.getByRole("button", { name: "Schedule", exact: true }).click();
  await expect(page.getByTestId("toast")).toHaveText("Meeting scheduled. The invitations are on their way.");
  const mine = page.getByTestId("upcoming-meetings").getByTestId("meeting").filter({ hasText: "Aquifer sync" });
  // The host's times: in their browser's zone with JavaScript, else in the first zone they scheduled in.
  await expect(mine.getByTestId("meeting-time")).toContainText(hasJs(info) ? /GMT\+1 \(in \d+ minutes?\)/ : /GMT\+9 \(in \d+ minutes?\)/);

  // The invited member: the same meeting, in their zone (UTC, never set), with Tokyo's time beside it.
  await open(guestPage, info, "/liveStreaming");
  const theirs = guestPage.getByTestId("meeting").filter({ hasText: "Aquifer sync" });
  await expect(theirs.getByTestId("meeting-time")).toContainText("UTC");
  await expect(theirs.getByTestId("meeting-zone")).toContainText("GMT+9");
  await expect(theirs).toContainText("Host: Meeting Host");
  // ...and a notification of the invitation (after the one of the host's follow), on the bell and in the list.
  await expect(guestPage.getByTestId("bell-badge")).toHaveText("2");
  await guestPage.getByTestId("bell").click();
  const note = guestPage.getByTestId("notification").first();
  await expect(note).toHaveText(/Meeting Host invited you to “Aquifer sync”/);
  await expect(note).toHaveAttribute("data-unread", "true");
  // Opening it marks it read and leads to the meeting.
  await note.getByRole("button").click();
  await expect(guestPage).toHaveURL(/\/liveStreaming\/join\?id=\d+$/);
  await expect(guestPage.getByTestId("bell-badge")).toHaveText("1");
  await open(guestPage, info, "/liveStreaming");

  // Joining: a frame of the provider's room with JavaScript, a link without; the page frames that origin only.
  await guestPage.route("https://meet.jit.si/**", (route) => route.abort());
  await theirs.getByRole("link", { name: "Join" }).click();
  await expect(guestPage).toHaveURL(/\/liveStreaming\/join\?id=\d+$/);
  if (hasJs(info)) {
    await expect(guestPage.getByTestId("meeting-room").locator("iframe")).toHaveAttribute(
      "src",
      /^https:\/\/meet\.jit\.si\/ResearchCommons[a-z2-7]{24}$/,
    );
  } else {
    await expect(guestPage.getByTestId("meeting-link").getByRole("link")).toHaveAttribute(
      "href",
      /^https:\/\/meet\.jit\.si\/ResearchCommons/,
    );
  }
  const joinAddress = guestPage.url();
  const policy = (await guestPage.request.get(joinAddress)).headers()["content-security-policy"];
  expect(policy).toContain("frame-src 'self' https://meet.jit.si;");

  // Each address got one invitation, with its calendar file (mailed by a queued job, so the outbox is read again until it is there).
  const adaMail = await mailTo(page, ada);
  await expect(adaMail).toHaveCount(1);
  await expect(adaMail.getByTestId("mail-attachment")).toContainText("invite.ics");

  // The host edits it...
  await open(page, info, "/liveStreaming");
  await mine.getByRole("link", { name: "Edit" }).click();
  await expect(page.getByRole("heading", { name: "Edit “Aquifer sync”" })).toBeVisible();
  await page.getByTestId("meeting-form").getByLabel("Title").fill("Aquifer sync, moved");
  await page.getByRole("button", { name: "Save changes" }).click();
  await expect(page.getByTestId("toast")).toHaveText("Meeting updated. The attendees were told.");
  // ...and cancels it: it moves to the past, marked cancelled, for the guest too.
  const moved = page.getByTestId("upcoming-meetings").getByTestId("meeting").filter({ hasText: "Aquifer sync, moved" });
  await moved.getByRole("button", { name: "Cancel meeting" }).click();
  await expect(page.getByTestId("toast")).toHaveText("Meeting cancelled. The attendees were told.");
  await open(guestPage, info, "/liveStreaming");
  await expect(guestPage.getByTestId("past-meetings").getByTestId("meeting").filter({ hasText: "Aquifer sync, moved" })).toContainText(
    "Cancelled",
  );

  // Someone neither hosting nor invited: the meeting does not exist for them.
  const strangerPage = await browser.newContext({ javaScriptEnabled: hasJs(info) }).then((context) => context.newPage());
  await signUpAndIn(strangerPage, "Stranger");
  const answer = await strangerPage.goto(joinAddress);
  expect(answer?.status()).toBe(404);
});

test("a double click on Schedule makes one meeting and one invitation; an edit from an older window is refused", async ({
  page,
  context,
}, info) => {
  await signUpAndIn(page, "Double Clicker");
  const ada = uniqueEmail("ada");
  await open(page, info, "/liveStreaming?schedule");
  await fillMeeting(page, { title: "Clicked twice", emails: ada });
  await page.getByRole("button", { name: "Schedule", exact: true }).dblclick();
  await expect(page.getByTestId("toast")).toHaveText("Meeting scheduled. The invitations are on their way.");
  await open(page, info, "/liveStreaming");
  const mine = page.getByTestId("upcoming-meetings").getByTestId("meeting").filter({ hasText: "Clicked twice" });
  await expect(mine).toHaveCount(1);
  await expect(await mailTo(page, ada)).toHaveCount(1);

  // Two windows edit the same version: the first saves, the second is told and changes nothing.
  await open(page, info, "/liveStreaming");
  await mine.getByRole("link", { name: "Edit" }).click();
  await expect(page.getByRole("heading", { name: "Edit “Clicked twice”" })).toBeVisible();
  const other = await context.newPage();
  await open(other, info, page.url());
  await page.getByTestId("meeting-form").getByLabel("Title").fill("Saved first");
  await page.getByRole("button", { name: "Save changes" }).click();
  await expect(page.getByTestId("toast")).toHaveText("Meeting updated. The attendees were told.");
  await other.getByTestId("meeting-form").getByLabel("Title").fill("Saved late");
  await other.getByRole("button", { name: "Save changes" }).click();
  await expect(other.getByTestId("form-error")).toHaveText(/This meeting was changed meanwhile/);
  await open(other, info, "/liveStreaming");
  await expect(other.getByTestId("upcoming-meetings").getByTestId("meeting")).toHaveText([/Saved first/]);
});

test("every meeting rule of the spec appears beside its field, and a start in the past is refused", async ({ page }, info) => {
  await signUpAndIn(page, "Hasty Host");
  await open(page, info, "/liveStreaming?schedule");
  const form = page.getByTestId("meeting-form");
  await form.getByLabel("Time zone", { exact: true }).selectOption("");
  await form.getByLabel("Duration (minutes)").fill("");
  await page.getByRole("button", { name: "Schedule", exact: true }).click();
  await expect(page.getByTestId("error-title")).toHaveText("Title cannot be empty");
  await expect(page.getByTestId("error-agenda")).toHaveText("Agenda cannot be empty");
  await expect(page.getByTestId("error-timeZone")).toHaveText("Time zone cannot be empty");
  await expect(page.getByTestId("error-startsAt")).toHaveText("Start time cannot be empty");
  await expect(page.getByTestId("error-duration")).toHaveText("Duration (minutes) cannot be empty");
  await expect(page.getByTestId("error-emails")).toHaveText("Emails cannot be empty");

  await fillMeeting(page, { title: "Too late", emails: "someone@example.org", start: wallClock(-120, "Asia/Tokyo") });
  await page.getByRole("button", { name: "Schedule", exact: true }).click();
  await expect(page.getByTestId("error-startsAt")).toHaveText("The start must be in the future");
  // Still the form (the post went to its own address), nothing scheduled.
  await expect(page).toHaveURL(/\/liveStreaming\?schedule=?$/);

  // With JavaScript a search box narrows the 400 zones.
  if (hasJs(info)) {
    await form.getByLabel("Find a time zone").fill("tokyo");
    const shown = await form.getByLabel("Time zone", { exact: true }).evaluate((select) =>
      Array.from((select as unknown as HTMLSelectElement).options)
        .filter((o) => !o.hidden)
        .map((o) => o.value),
    );
    expect(shown).toContain("Asia/Tokyo");
    expect(shown.length).toBeLessThan(5);
  }
  await open(page, info, "/liveStreaming");
  await expect(page.getByTestId("upcoming-meetings")).toHaveCount(0);
});

test("the spec's meeting messages in Japanese and Chinese too", async ({ page, context }, info) => {
  await signUpAndIn(page, "Polyglot Host");
  for (const [language, title, emails] of [
    ["ja", "テーマを入力してください", "メールアドレスを入力してください"],
    ["zh", "主题不能为空", "邮箱不能为空"],
  ]) {
    await context.addCookies([{ name: "language", value: language ?? "", url: info.project.use.baseURL ?? "" }]);
    await open(page, info, "/liveStreaming?schedule");
    await page.getByTestId("meeting-form").getByRole("button").click();
    await expect(page.getByTestId("error-title")).toHaveText(title ?? "");
    await expect(page.getByTestId("error-emails")).toHaveText(emails ?? "");
  }
});

test(
  "the bell counts a new notification while the page is open, and a browser that cannot go full screen says so",
  JS_ONLY,
  async ({ page, browser }, info) => {
    const member = await signUpAndIn(page, "Watched Member");
    await open(page, info, "/home");
    await expect(page.getByTestId("bell-badge")).toBeHidden();
    const other = await browser.newContext().then((context) => context.newPage());
    const fan = await signUpAndIn(other, "Fan");
    await other.request.post(`/api/users/${member.id}/follow`, { headers: { Authorization: `Bearer ${fan.token}` } });
    await expect(page.getByTestId("bell-badge")).toHaveText("1");

    // A meeting starting now, opened in a browser without full screen.
    const created = await page.request.post("/api/meetings", {
      headers: { Authorization: `Bearer ${member.token}` },
      data: { title: "Now", agenda: "a", time_zone: "UTC", starts_at: wallClock(2, "UTC"), duration: 30, emails: "x@example.org" },
    });
    const id = (await created.json()).data.id;
    await page.addInitScript(() => Object.defineProperty(document, "fullscreenEnabled", { value: false }));
    await page.route("https://meet.jit.si/**", (route) => route.abort());
    await open(page, info, `/liveStreaming/join?id=${id}`);
    await page.getByRole("button", { name: "Full screen" }).click();
    await expect(page.getByTestId("fullscreen-unsupported")).toHaveText("you browser can not work");
  },
);
