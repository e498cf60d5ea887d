import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { recordView } from "~/.server/content/content";
import * as detail from "~/routes/content-detail/route";
import * as home from "~/routes/home";
import * as retrieval from "~/routes/retrieval";
import { newItem, newMember } from "../helpers";
import { callRoute, sessionFor } from "../route";

// Page loads read D1 in one batch where their reads do not depend on each other, and record what a
// visit changes after the answer (decision 0036). Round trips are read from the answer's Server-Timing.

const trips = (headers: Headers) => Number(/desc="D1 (\d+) trips/.exec(headers.get("Server-Timing") ?? "")?.[1]);
const ownNavigation = { "Sec-Fetch-Site": "same-origin" };

describe("a page load's reads", () => {
  it("home: the session, one batch for everything shown, then the member's place from their score", async () => {
    const me = await newMember("Reader");
    const token = await sessionFor(me);
    // The first load of a fresh database also computes its first ranking.
    expect((await callRoute(home, { path: "/home", token })).status).toBe(200);
    const answer = await callRoute(home, { path: "/home", token });
    expect(trips(answer.headers)).toBe(3);
  });

  it("the detail page: the item, then one batch; the view is counted once a day, after the answer", async () => {
    const owner = await newMember("Owner");
    const item = await newItem(owner);
    const reader = await newMember("Reader");
    const token = await sessionFor(reader);
    const path = `/retrieval/detail?id=${item}`;
    for (let load = 0; load < 2; load++) {
      const page = await callRoute<{ item: { views: number } }>(detail, { path, token });
      expect(page.data.item.views).toBe(1);
      // The session, the item, one batch (and on the first load the view's own write, not awaited).
      expect(trips(page.headers)).toBe(load === 0 ? 4 : 3);
    }
    const stored = await env.DB.prepare("SELECT views FROM content WHERE id = ?").bind(item).first<number>("views");
    expect(stored).toBe(1);
  });

  it("counts one view when the same member opens the item twice at once, and again on another day", async () => {
    const item = await newItem(await newMember("Owner"));
    const reader = await newMember("Reader");
    const day = Date.UTC(2026, 10, 26, 9);
    expect((await Promise.all([recordView(item, reader, day), recordView(item, reader, day)])).sort()).toEqual([false, true]);
    expect(await recordView(item, reader, day + 86_400_000)).toBe(true);
    expect(await env.DB.prepare("SELECT views FROM content WHERE id = ?").bind(item).first<number>("views")).toBe(2);
  });

  it("retrieval: the history shown has the search already; the write follows and keeps it once", async () => {
    const me = await newMember("Searcher");
    const token = await sessionFor(me);
    const word = `reads${crypto.randomUUID().slice(0, 8)}`;
    for (let load = 0; load < 2; load++) {
      const page = await callRoute<{ history: string[] }>(retrieval, { path: `/retrieval?q=${word}`, token, headers: ownNavigation });
      expect(page.data.history).toEqual([word]);
    }
    const rows = await env.DB.prepare("SELECT count(*) AS n FROM search_history WHERE user_id = ?").bind(me).first<number>("n");
    expect(rows).toBe(1);
  });
});
