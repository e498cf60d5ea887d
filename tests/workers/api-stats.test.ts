import { describe, expect, it } from "vitest";
import { foldReadings } from "~/.server/stats/fold";
import { call, NOW, registered } from "./api-helpers";
import { newItem } from "./helpers";

// The statistics API (app/api/stats.ts): a member's own, an item's for its owner only, and the score's history.

describe("the JSON API (spec section 7)", () => {
  it("answers statistics: mine, an item's for its owner only, and my score's history", async () => {
    const owner = (await registered()).res.json.data as { access_token: string; user: { id: number } };
    const reader = (await registered(2)).res.json.data as { access_token: string; user: { id: number } };
    const item = await newItem(owner.user.id);
    const reading = { kind: "view" as const, content: item, member: reader.user.id, type: 2 as const, day: "2026-11-22" };
    await foldReadings([
      { ...reading, id: crypto.randomUUID(), at: NOW },
      { ...reading, id: crypto.randomUUID(), at: NOW - 40 * 86_400_000, day: "2026-10-13" },
    ]);
    const mine = await call("GET", "/stats/me", { token: owner.access_token });
    expect(mine.status).toBe(200);
    expect(mine.json.data).toMatchObject({
      range: "30d",
      per: "day",
      to: "2026-11-22",
      totals: { views: 1 },
      previous: { views: 1 },
      has_more: false,
    });
    expect(mine.json.data?.items).toEqual([expect.objectContaining({ id: item, counts: expect.objectContaining({ views: 1 }) })]);
    const year = await call("GET", "/stats/me?range=12m&per=week", { token: owner.access_token });
    expect(year.json.data).toMatchObject({ range: "12m", per: "week", totals: { views: 2 } });
    const theirs = await call("GET", `/contents/${item}/stats`, { token: owner.access_token });
    expect(theirs.json.data).toMatchObject({ totals: { views: 1 }, readers: { researchers: 0, supporters: 1 } });
    expect((await call("GET", `/contents/${item}/stats`, { token: reader.access_token })).status).toBe(404);
    const history = await call("GET", "/ranking/me/history", { token: owner.access_token });
    expect(history.json.data).toEqual({ history: [] });
  });
});
