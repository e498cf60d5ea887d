import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { timeZones, utcToZoned, zoneChoices } from "~/lib/time-zone";
import * as meetings from "~/routes/meetings";
import { outboxFor, uniqueEmail, until } from "../helpers";
import { callRoute } from "../route";
import { flashOf, type Reply, signedIn } from "./page-helpers";

// /liveStreaming's forms: schedule, edit and cancel a meeting. The page's times and zones, the join
// page and the mail's calendar file are proven in tests/e2e and tests/workers/meetings.test.ts.

/** A wall-clock time `minutes` from now in `zone`, as the form's datetime-local value. */
const wallClock = (minutes: number, zone: string) => utcToZoned(Date.now() + minutes * 60_000, zone);

const form = (over: Record<string, string> = {}) => ({
  title: "Groundwater review",
  agenda: "1. Findings\n2. Next steps",
  timeZone: "Asia/Tokyo",
  startsAt: wallClock(2 * 24 * 60, "Asia/Tokyo"),
  duration: "30",
  emails: uniqueEmail("ada"),
  ...over,
});

const hosted = async (hostId: number) =>
  (
    await env.DB.prepare("SELECT id, title, sequence, cancelled_at FROM meetings WHERE host_id = ? ORDER BY id")
      .bind(hostId)
      .all<{ id: number; title: string; sequence: number; cancelled_at: number | null }>()
  ).results;

describe("/liveStreaming", () => {
  it("sends a visitor to the login with the full path", async () => {
    const answer = await callRoute(meetings, { path: "/liveStreaming?edit=7" });
    expect([answer.status, answer.location]).toEqual([302, "/login?redirect=%2FliveStreaming%3Fedit%3D7"]);
    const post = await callRoute(meetings, { path: "/liveStreaming", form: { intent: "cancel", id: "7" } });
    expect([post.status, post.location]).toEqual([302, "/login?redirect=%2FliveStreaming"]);
  });

  it("lists meetings without the form, and gives the form its own address with a fresh key", async () => {
    const me = await signedIn("Host");
    const list = await callRoute<{ form: unknown; upcoming: unknown[] }>(meetings, { path: "/liveStreaming", token: me.token });
    expect([list.status, list.data.form, list.data.upcoming]).toEqual([200, null, []]);
    const page = await callRoute<{ form: { defaults: { clientKey: string; timeZone: string } } }>(meetings, {
      path: "/liveStreaming?schedule",
      token: me.token,
    });
    expect(page.data.form.defaults.clientKey).toMatch(/^[\w-]{8,64}$/);
    expect(page.data.form.defaults.timeZone).toBe("UTC");
  });

  it("lists one region's zones at a time without script, and answers a region chosen with the form asking for one of its zones", async () => {
    const tokyo = zoneChoices("Asia/Tokyo");
    expect(tokyo.zones).toEqual(expect.arrayContaining(["UTC", "Asia/Tokyo", "Asia/Seoul"]));
    expect(tokyo.zones).not.toContain("Europe/Paris");
    expect(tokyo.regions).toEqual(expect.arrayContaining(["Europe", "America", "Africa"]));
    expect(tokyo.regions).not.toContain("Asia");
    expect(zoneChoices("region:Europe").zones).toContain("Europe/Paris");
    // Every zone is in its region's list: none is out of reach.
    const reachable = new Set(["", ...zoneChoices("UTC").regions].flatMap((region) => zoneChoices(`region:${region}`).zones));
    expect(timeZones().filter((zone) => !reachable.has(zone))).toEqual([]);

    const me = await signedIn("Host");
    const chosen = await callRoute<{ result: Reply }>(meetings, {
      path: "/liveStreaming?schedule",
      token: me.token,
      form: form({ timeZone: "region:Asia" }),
    });
    expect([chosen.status, chosen.data.result.error?.timeZone]).toEqual([400, ["validation.meetingZoneIn|region=Asia"]]);
    // Said beside the field whatever else the form lacks.
    const untitled = await callRoute<{ result: Reply }>(meetings, {
      path: "/liveStreaming?schedule",
      token: me.token,
      form: form({ timeZone: "region:Asia", title: "" }),
    });
    expect(untitled.data.result.error?.timeZone).toEqual(["validation.meetingZoneIn|region=Asia"]);
    const unknown = await callRoute<{ result: Reply }>(meetings, {
      path: "/liveStreaming?schedule",
      token: me.token,
      form: form({ timeZone: "region:Atlantis" }),
    });
    expect(unknown.data.result.error?.timeZone).toEqual(["validation.meetingTimeZone"]);
    expect(await hosted(me.id)).toEqual([]);
  });

  it("puts every rule of the spec beside its field with 400, and refuses a start in the past, scheduling nothing", async () => {
    const me = await signedIn("Host");
    const empty = await callRoute<{ result: Reply }>(meetings, {
      path: "/liveStreaming?schedule",
      token: me.token,
      form: { title: "", agenda: "", timeZone: "", startsAt: "", duration: "", emails: "" },
    });
    expect(empty.status).toBe(400);
    expect(empty.data.result.error).toMatchObject({
      title: ["validation.fieldEmpty|field=fields.meetingTitle"],
      agenda: ["validation.fieldEmpty|field=fields.meetingAgenda"],
      timeZone: ["validation.fieldEmpty|field=fields.meetingTimeZone"],
      startsAt: ["validation.fieldEmpty|field=fields.meetingStart"],
      duration: ["validation.fieldEmpty|field=fields.meetingDuration"],
      emails: ["validation.fieldEmpty|field=fields.meetingEmails"],
    });
    const late = await callRoute<{ result: Reply }>(meetings, {
      path: "/liveStreaming?schedule",
      token: me.token,
      form: form({ startsAt: wallClock(-120, "Asia/Tokyo") }),
    });
    expect([late.status, late.data.result.error?.startsAt]).toEqual([400, ["validation.meetingStartPast"]]);
    expect(await hosted(me.id)).toEqual([]);
  });

  it("schedules once for a form posted twice, with one invitation and a notice", async () => {
    const me = await signedIn("Host");
    const fields = form({ clientKey: crypto.randomUUID(), title: "Clicked twice" });
    for (let i = 0; i < 2; i++) {
      const answer = await callRoute(meetings, { path: "/liveStreaming?schedule", token: me.token, form: fields });
      expect([answer.status, answer.location]).toEqual([303, "/liveStreaming"]);
      expect(flashOf(answer)).toMatchObject({ kind: "success", key: "notify.meetingScheduled" });
    }
    expect((await hosted(me.id)).map((m) => m.title)).toEqual(["Clicked twice"]);
    expect(await until(async () => (await outboxFor(fields.emails)).length)).toBe(1);
    const list = await callRoute<{ upcoming: { title: string; editable: boolean }[] }>(meetings, {
      path: "/liveStreaming",
      token: me.token,
    });
    expect(list.data.upcoming).toEqual([expect.objectContaining({ title: "Clicked twice", editable: true })]);
  });

  it("edits from the version shown, and refuses an edit from an older window with 409, changing nothing", async () => {
    const me = await signedIn("Host");
    await callRoute(meetings, { path: "/liveStreaming?schedule", token: me.token, form: form({ title: "First" }) });
    const [meeting] = await hosted(me.id);
    const id = String(meeting?.id);
    const editing = await callRoute<{ form: { editing: { id: number }; defaults: { sequence: string } } }>(meetings, {
      path: `/liveStreaming?edit=${id}`,
      token: me.token,
    });
    expect(editing.data.form.editing.id).toBe(meeting?.id);
    const shown = editing.data.form.defaults.sequence;
    const saved = await callRoute(meetings, {
      path: `/liveStreaming?edit=${id}`,
      token: me.token,
      form: form({ intent: "update", id, sequence: shown, title: "Saved first" }),
    });
    expect([saved.status, saved.location, flashOf(saved)?.key]).toEqual([303, "/liveStreaming", "notify.meetingUpdated"]);
    const late = await callRoute<{ result: Reply }>(meetings, {
      path: `/liveStreaming?edit=${id}`,
      token: me.token,
      form: form({ intent: "update", id, sequence: shown, title: "Saved late" }),
    });
    expect([late.status, late.data.result.error?.[""]]).toEqual([409, ["validation.meetingChanged"]]);
    expect((await hosted(me.id)).map((m) => m.title)).toEqual(["Saved first"]);
  });

  it("cancels one's own meeting with a notice; another member's is 404 to edit, update or cancel", async () => {
    const me = await signedIn("Host");
    const other = await signedIn("Other");
    await callRoute(meetings, { path: "/liveStreaming?schedule", token: me.token, form: form({ title: "Mine" }) });
    const id = String((await hosted(me.id))[0]?.id);
    const notMine = await callRoute<{ form: unknown }>(meetings, { path: `/liveStreaming?edit=${id}`, token: other.token });
    expect(notMine.data.form).toBeNull();
    expect((await callRoute(meetings, { path: "/liveStreaming", token: other.token, form: { intent: "cancel", id } })).status).toBe(404);
    const update = form({ intent: "update", id, sequence: "0", title: "Taken" });
    expect((await callRoute(meetings, { path: "/liveStreaming", token: other.token, form: update })).status).toBe(404);
    expect(await hosted(me.id)).toEqual([expect.objectContaining({ title: "Mine", cancelled_at: null })]);

    const cancelled = await callRoute(meetings, { path: "/liveStreaming", token: me.token, form: { intent: "cancel", id } });
    expect([cancelled.status, cancelled.location, flashOf(cancelled)?.key]).toEqual([303, "/liveStreaming", "notify.meetingCancelled"]);
    expect((await hosted(me.id))[0]?.cancelled_at).toEqual(expect.any(Number));
  });
});
