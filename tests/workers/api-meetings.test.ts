import { describe, expect, it } from "vitest";
import ja from "#locales/ja/translation";
import zh from "#locales/zh/translation";
import { zonedToUtc } from "~/lib/time-zone";
import { call, registered } from "./api-helpers";
import { uniqueEmail } from "./helpers";

// The meetings API (app/api/meetings.ts): a meeting scheduled, read, changed and cancelled by its host
// only, once per client_key, an older version's edit refused, and fields taken in snake_case only.

describe("the meetings API", () => {
  const meeting = {
    title: "Api sync",
    agenda: "Numbers",
    time_zone: "Europe/Berlin",
    // A week from the real clock (the API schedules against it), as Berlin's wall clock.
    starts_at: `${new Date(Date.now() + 7 * 86_400_000).toISOString().slice(0, 11)}10:00`,
    duration: 30,
    emails: "a@b.example",
  };

  it("schedules, reads, changes and cancels a meeting for its host; others get 404 for every call", async () => {
    const host = String((await registered()).res.json.data?.access_token);
    const other = String((await registered()).res.json.data?.access_token);
    const created = await call("POST", "/meetings", { token: host, body: meeting });
    expect(created.status).toBe(201);
    const id = Number(created.json.data?.id);
    expect((await call("GET", `/meetings/${id}`, { token: host })).json.data).toMatchObject({
      title: "Api sync",
      starts_at: zonedToUtc(meeting.starts_at, "Europe/Berlin"),
      emails: ["a@b.example"],
      sequence: 0,
    });
    expect((await call("GET", `/meetings/${id}/join`, { token: host })).json.data).toMatchObject({ joinable: false, start_url: null });
    for (const [method, path] of [
      ["GET", `/meetings/${id}`],
      ["GET", `/meetings/${id}/join`],
      ["PUT", `/meetings/${id}`],
      ["DELETE", `/meetings/${id}`],
    ] as const) {
      expect((await call(method, path, { token: other, body: method === "PUT" ? meeting : undefined })).status, `${method} ${path}`).toBe(
        404,
      );
    }
    expect((await call("PUT", `/meetings/${id}`, { token: host, body: { ...meeting, title: "Api sync 2" } })).status).toBe(200);
    expect((await call("DELETE", `/meetings/${id}`, { token: host })).status).toBe(200);
    expect((await call("DELETE", `/meetings/${id}`, { token: host })).status).toBe(200);
    const listed = await call("GET", "/meetings", { token: host });
    expect(listed.json.data).toMatchObject({ upcoming: [], past: [{ id, title: "Api sync 2", sequence: 2 }] });
  });

  it("schedules one meeting for one client_key posted twice, and refuses an edit of an older version with 409", async () => {
    const host = String((await registered()).res.json.data?.access_token);
    const body = { ...meeting, emails: uniqueEmail("api"), client_key: "api-form-key-1" };
    const [first, second] = await Promise.all([
      call("POST", "/meetings", { token: host, body }),
      call("POST", "/meetings", { token: host, body }),
    ]);
    expect([first.status, second.status].sort()).toEqual([200, 201]);
    expect(second.json.data?.id).toBe(first.json.data?.id);
    expect((await call("GET", "/meetings", { token: host })).json.data).toMatchObject({ upcoming: [{ id: first.json.data?.id }] });
    const id = Number(first.json.data?.id);
    expect((await call("PUT", `/meetings/${id}`, { token: host, body: { ...body, title: "Renamed", sequence: 0 } })).status).toBe(200);
    const stale = await call("PUT", `/meetings/${id}`, { token: host, body: { ...body, title: "Stale", sequence: 0 }, language: "zh" });
    expect(stale).toMatchObject({ status: 409, json: { message: zh.validation.meetingChanged } });
    expect((await call("GET", `/meetings/${id}`, { token: host })).json.data).toMatchObject({ title: "Renamed", sequence: 1 });
  });

  it("takes its fields in snake_case only: the form's camelCase names are not read", async () => {
    const host = String((await registered()).res.json.data?.access_token);
    const { time_zone, starts_at, ...rest } = meeting;
    const camel = await call("POST", "/meetings", { token: host, body: { ...rest, timeZone: time_zone, startsAt: starts_at } });
    expect(camel.status).toBe(400);
    expect(Object.keys(camel.json.errors ?? {}).sort()).toEqual(["starts_at", "time_zone"]);
  });

  it("refuses a start in the past beside its field, in the member's language", async () => {
    const host = String((await registered()).res.json.data?.access_token);
    const past = await call("POST", "/meetings", { token: host, body: { ...meeting, starts_at: "2020-01-01T10:00" }, language: "ja" });
    expect(past).toMatchObject({ status: 400, json: { errors: { starts_at: [ja.validation.meetingStartPast] } } });
  });
});
