import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { saveCaptions } from "~/.server/content/captions";
import * as detail from "~/routes/content-detail/route";
import * as home from "~/routes/home";
import * as retrieval from "~/routes/retrieval";
import { newItem, newMember, until } from "../helpers";
import { callRoute, sessionFor } from "../route";

// Page loads read D1 in one batch where their reads do not depend on each other, and record what a
// visit changes after the answer (decision 0036). Round trips are read from the answer's Server-Timing.

const trips = (headers: Headers) => Number(/desc="D1 (\d+) trips/.exec(headers.get("Server-Timing") ?? "")?.[1]);
const ownNavigation = { "Sec-Fetch-Site": "same-origin" };

describe("a page load's reads", () => {
  it("home: the session, one batch for everything shown, then the member's place from their score and views", async () => {
    const me = await newMember("Reader");
    const token = await sessionFor(me);
    // The first load of a fresh database also computes its first ranking.
    expect((await callRoute(home, { path: "/home", token })).status).toBe(200);
    const answer = await callRoute(home, { path: "/home", token });
    // The views behind the score are the statistics database's: every database's trips count.
    expect(trips(answer.headers)).toBe(4);
  });

  it("the detail page: the item, then one batch; the view goes to the stats queue, never to D1 on the way", async () => {
    const owner = await newMember("Owner");
    const item = await newItem(owner);
    const reader = await newMember("Reader");
    const token = await sessionFor(reader);
    const path = `/retrieval/detail?id=${item}`;
    for (let load = 0; load < 2; load++) {
      const page = await callRoute(detail, { path, token, headers: { "User-Agent": "Mozilla/5.0 Firefox/133.0" } });
      // The session, the item, one batch: the same on a first visit as on the next.
      expect(trips(page.headers)).toBe(3);
    }
    // Both opens arrive (within 30 s of each other: one view; tests/workers/statistics.test.ts counts the rest).
    expect(await until(() => env.DB.prepare("SELECT views FROM content WHERE id = ?").bind(item).first<number>("views"))).toBe(1);
  });

  it("a captioned video's page, its owner's: at most four round trips to every database, its transcript among them", async () => {
    const owner = await newMember("Video owner");
    const video = await newItem(owner, { kind: "video" });
    const cues = (word: string) =>
      Array.from({ length: 3 }, (_, i) => ({ start_ms: i * 1000, end_ms: i * 1000 + 900, text: `${word} ${i}` }));
    await saveCaptions(video, "en", cues("hello"), "owner", Date.now());
    await saveCaptions(video, "fr", cues("bonjour"), "owner", Date.now());
    const token = await sessionFor(owner);
    for (const path of [`/retrieval/detail?id=${video}`, `/retrieval/detail?id=${video}&t=1&lang=fr`]) {
      const page = await callRoute<{ transcript: { view: { cues: unknown[] } | null } }>(detail, { path, token });
      expect(page.data.transcript.view?.cues.length, path).toBeGreaterThan(0);
      expect(trips(page.headers), path).toBeLessThanOrEqual(4);
    }
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
