import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { cancelMeeting, createMeeting, hostLink, meetingFor, updateMeeting } from "~/.server/meetings/meetings";
import { ZoomError, zoom } from "~/.server/meetings/zoom";
import { meetingSchema } from "~/lib/schemas/meeting";
import { newMember } from "./helpers";

// Zoom is out of reach here: this fake answers at its HTTP boundary as Zoom's published API does
// (Server-to-Server OAuth token, POST /users/me/meetings, PATCH and DELETE /meetings/{id}).

const NOW = Date.UTC(2026, 10, 23, 9, 0);
const CONFIG = {
  accountId: "acc-1",
  clientId: "client",
  clientSecret: "secret",
  oauthUrl: "https://zoom.fake",
  apiUrl: "https://api.zoom.fake/v2",
};

function fakeZoom() {
  const state = {
    tokens: 0,
    issued: new Set<string>(),
    meetings: new Map<string, Record<string, unknown>>(),
    calls: [] as string[],
    /** Statuses to answer the next API calls with, before anything else. */
    failNext: [] as number[],
  };
  const json = (status: number, body?: object) =>
    new Response(body ? JSON.stringify(body) : null, { status, headers: body ? { "Content-Type": "application/json" } : {} });
  const fetcher = (async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(String(input));
    const headers = new Headers(init?.headers);
    if (url.origin === CONFIG.oauthUrl) {
      expect(url.pathname).toBe("/oauth/token");
      expect(url.searchParams.get("grant_type")).toBe("account_credentials");
      expect(url.searchParams.get("account_id")).toBe("acc-1");
      if (headers.get("Authorization") !== `Basic ${btoa("client:secret")}`)
        return json(401, { reason: "Invalid client_id or client_secret" });
      const token = `token-${++state.tokens}`;
      state.issued.add(token);
      return json(200, { access_token: token, token_type: "bearer", expires_in: 3599, scope: "meeting:write:admin" });
    }
    const token = headers.get("Authorization")?.replace("Bearer ", "") ?? "";
    state.calls.push(`${init?.method} ${url.pathname} ${token}`);
    if (!state.issued.has(token)) return json(401, { code: 124, message: "Invalid access token." });
    const failure = state.failNext.shift();
    if (failure === 429) return json(429, { code: 429, message: "You have reached the maximum per-second rate limit for this API." });
    if (failure) return json(failure, { code: failure, message: "Something went wrong" });
    const path = url.pathname.replace("/v2", "");
    const body = init?.body ? (JSON.parse(String(init.body)) as Record<string, unknown>) : {};
    if (init?.method === "POST" && path === "/users/me/meetings") {
      const id = String(85746065000 + state.meetings.size);
      state.meetings.set(id, body);
      return json(201, {
        id: Number(id),
        join_url: `https://us02web.zoom.fake/j/${id}?pwd=x`,
        start_url: `https://us02web.zoom.fake/s/${id}?zak=host`,
        ...body,
      });
    }
    const meeting = /^\/meetings\/(\d+)$/.exec(path)?.[1] ?? "";
    if (!state.meetings.has(meeting)) return json(404, { code: 3001, message: "Meeting does not exist." });
    if (init?.method === "GET")
      return json(200, {
        id: Number(meeting),
        ...state.meetings.get(meeting),
        start_url: `https://us02web.zoom.fake/s/${meeting}?zak=fresh`,
      });
    if (init?.method === "PATCH") {
      state.meetings.set(meeting, { ...state.meetings.get(meeting), ...body });
      return json(204);
    }
    if (init?.method === "DELETE") {
      state.meetings.delete(meeting);
      return json(204);
    }
    return json(405);
  }) as typeof fetch;
  return { state, fetcher };
}

const input = (over: Record<string, unknown> = {}) =>
  meetingSchema.parse({
    title: "Zoom sync",
    agenda: "Budget",
    timeZone: "America/New_York",
    startsAt: "2026-12-01T09:00",
    duration: "30",
    emails: "a@b.example",
    ...over,
  });

describe("the Zoom provider against a fake of Zoom's API", () => {
  it("buys a token once and keeps it until a minute before it ends, then buys another", async () => {
    const { state, fetcher } = fakeZoom();
    let clock = NOW;
    const provider = zoom(CONFIG, fetcher, () => clock);
    const meeting = { title: "t", agenda: "a", startsAt: NOW + 86_400_000, durationMinutes: 30, timeZone: "UTC" };
    await provider.create(meeting);
    await provider.create(meeting);
    expect(state.tokens).toBe(1);
    clock += 3599_000 - 60_000;
    await provider.create(meeting);
    expect(state.tokens).toBe(2);
    // A token Zoom no longer accepts: one fresh token and one retry.
    state.issued.clear();
    await provider.create(meeting);
    expect(state.tokens).toBe(3);
  });

  it("creates, updates and deletes the Zoom meeting with the meeting's fields; the host's start link is the host's only", async () => {
    const { state, fetcher } = fakeZoom();
    const provider = zoom(CONFIG, fetcher, () => NOW);
    const host = await newMember("Zoom host");
    const created = await createMeeting(provider, host, input(), NOW);
    const meeting = await meetingFor(host, created.id ?? 0);
    const zoomId = [...state.meetings.keys()][0] ?? "";
    expect(state.meetings.get(zoomId)).toEqual({
      topic: "Zoom sync",
      type: 2,
      start_time: "2026-12-01T14:00:00Z",
      duration: 30,
      timezone: "America/New_York",
      agenda: "Budget",
    });
    expect(meeting).toMatchObject({ provider: "zoom", join_url: `https://us02web.zoom.fake/j/${zoomId}?pwd=x` });
    // The host's link is asked of Zoom when wanted (it expires), and never given to anyone else.
    const guest = await newMember("Zoom guest");
    expect(await hostLink(host, created.id ?? 0, () => provider)).toBe(`https://us02web.zoom.fake/s/${zoomId}?zak=fresh`);
    expect(await hostLink(guest, created.id ?? 0, () => provider)).toBeNull();
    expect(JSON.stringify(await env.DB.prepare("SELECT * FROM meetings WHERE id = ?").bind(created.id).first())).not.toContain("zak=");
    await updateMeeting(() => provider, host, created.id ?? 0, input({ duration: "45", title: "Zoom sync 2" }), NOW);
    expect(state.meetings.get(zoomId)).toMatchObject({ topic: "Zoom sync 2", duration: 45 });
    expect(await cancelMeeting(() => provider, host, created.id ?? 0, NOW)).toBe(true);
    expect(state.meetings.size).toBe(0);
  });

  it("reports Zoom's rate limit as such and keeps nothing; a Zoom meeting whose row cannot be stored is deleted again", async () => {
    const { state, fetcher } = fakeZoom();
    const provider = zoom(CONFIG, fetcher, () => NOW);
    const host = await newMember("Limited host");
    state.failNext.push(429);
    const limited = await createMeeting(provider, host, input(), NOW).catch((error) => error);
    expect(limited).toBeInstanceOf(ZoomError);
    expect(limited).toMatchObject({ status: 429, rateLimited: true });
    expect(await env.DB.prepare("SELECT count(*) AS n FROM meetings WHERE host_id = ?").bind(host).first("n")).toBe(0);
    // No such host: the row fails (foreign key) after Zoom made the meeting, which is then deleted.
    await expect(createMeeting(provider, 999999, input(), NOW)).rejects.toThrow();
    expect(state.meetings.size).toBe(0);
    expect(state.calls.map((c) => c.split(" ")[0])).toEqual(["POST", "POST", "DELETE"]);
    // An error at Zoom on update leaves the local meeting as it was.
    const created = await createMeeting(provider, host, input(), NOW);
    state.failNext.push(500);
    await expect(updateMeeting(() => provider, host, created.id ?? 0, input({ title: "Changed" }), NOW)).rejects.toBeInstanceOf(ZoomError);
    expect((await meetingFor(host, created.id ?? 0))?.title).toBe("Zoom sync");
  });

  it("refuses wrong credentials with an error, not a meeting", async () => {
    const { fetcher } = fakeZoom();
    const provider = zoom({ ...CONFIG, clientSecret: "wrong" }, fetcher, () => NOW);
    await expect(provider.create({ title: "t", agenda: "a", startsAt: NOW, durationMinutes: 5, timeZone: "UTC" })).rejects.toMatchObject({
      status: 401,
    });
  });
});
