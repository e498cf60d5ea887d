import { describe, expect, it } from "vitest";
import { call, registered } from "./api-helpers";

// The notifications API (app/api/notifications.ts): followed goals and saved searches, how each kind
// of notification reaches a member, and the notification centre's list, count and marking read.

describe("the JSON API (spec section 7)", () => {
  it("follows goals and saves searches: listed, idempotent, refused when wrong", async () => {
    const token = ((await registered()).res.json.data as { access_token: string }).access_token;
    expect((await call("PUT", "/notifications/goals/14", { token })).json.data).toMatchObject({ goals: [14] });
    expect((await call("PUT", "/notifications/goals/14", { token })).json.data).toMatchObject({ goals: [14] });
    expect((await call("PUT", "/notifications/goals/18", { token })).status).toBe(404);
    const saved = await call("POST", "/notifications/searches", { token, body: { q: "coral  reef", sdg: 14 } });
    const id = (saved.json.data as { id: number }).id;
    expect((await call("POST", "/notifications/searches", { token, body: { q: "coral reef", sdg: 14 } })).json.data).toEqual({ id });
    expect((await call("POST", "/notifications/searches", { token, body: { q: "  " } })).status).toBe(400);
    expect((await call("GET", "/notifications/following", { token })).json.data).toMatchObject({
      goals: [14],
      searches: [{ id, q: "coral reef", kind: null, sdg: 14 }],
    });
    expect((await call("DELETE", `/notifications/searches/${id}`, { token })).status).toBe(200);
    expect((await call("DELETE", `/notifications/searches/${id}`, { token })).status).toBe(404);
    expect((await call("DELETE", "/notifications/goals/14", { token })).json.data).toMatchObject({ goals: [], searches: [] });
  });

  it("answers and changes how each kind of notification reaches me, refusing a channel it does not know", async () => {
    const token = ((await registered()).res.json.data as { access_token: string }).access_token;
    const before = await call("GET", "/notifications/preferences", { token });
    expect(before.json.data?.channels).toMatchObject({ meeting: "mail", like: "weekly", moderation: "mail" });
    const changed = await call("PUT", "/notifications/preferences", { token, body: { channels: { like: "off", reply: "daily" } } });
    expect(changed.json.data?.channels).toMatchObject({ like: "off", reply: "daily", meeting: "mail" });
    expect((await call("PUT", "/notifications/preferences", { token, body: { channels: { like: "loud" } } })).status).toBe(400);
    expect((await call("PUT", "/notifications/preferences", { token, body: { channels: { everything: "off" } } })).status).toBe(400);
  });
});

describe("the notifications API", () => {
  it("lists a new follower as a sentence in the member's language with where it leads, counts it, and marks it read", async () => {
    const followed = await registered();
    const follower = await registered();
    const token = String(followed.res.json.data?.access_token);
    const idOf = (res: typeof followed.res) => Number((res.json.data?.user as { id?: number } | undefined)?.id);
    const [followedId, followerId] = [idOf(followed.res), idOf(follower.res)];
    await call("POST", `/users/${followedId}/follow`, { token: String(follower.res.json.data?.access_token) });
    expect((await call("GET", "/notifications/unread", { token })).json.data).toEqual({ count: 1 });
    const listed = await call("GET", "/notifications", { token, language: "ja" });
    expect(listed.json.data).toMatchObject({
      notifications: [
        { kind: "follower", text: "Apiさんがあなたをフォローしました", target: `/personal?member=${followerId}`, read_at: null },
      ],
    });
    expect((await call("POST", "/notifications/read", { token, body: {} })).json.data).toEqual({ changed: 1 });
    expect((await call("GET", "/notifications/unread", { token })).json.data).toEqual({ count: 0 });
  });
});
