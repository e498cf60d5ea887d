import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { runScheduled } from "~/.server/cron/scheduled";
import { awardPoints, PUBLISHED_RUN, rankingList, scoreFor, VIEWS_SQL } from "~/.server/ranking/ranking";
import { recomputeScores } from "~/.server/ranking/score-runs";
import { COEFFICIENTS, POINT_RULES, SCORE_INPUTS, type ScoreInput, scoreOf } from "~/lib/credit-score";
import { newItem, newMember, until } from "./helpers";

const NOW = Date.UTC(2026, 10, 22, 12);
const DAY = 86_400_000;

const member = (nick = "M") => newMember(nick);
const upload = (owner: number, kind: "document" | "video", at: number) => newItem(owner, { kind, created_at: at });

/** A small deterministic random source, so a failing case can be replayed. */
function random(seed: number) {
  let state = seed;
  return (max: number) => {
    state = (state * 1103515245 + 12345) % 2 ** 31;
    return state % max;
  };
}

describe("points", () => {
  it("stop at the daily cap", async () => {
    const me = await member();
    for (let i = 0; i < 30; i++) await awardPoints(me, "comment", NOW);
    const { total } = (await env.DB.prepare("SELECT sum(amount) AS total FROM points WHERE user_id = ?")
      .bind(me)
      .first<{ total: number }>()) ?? { total: 0 };
    expect(total).toBe(POINT_RULES.comment.amount * POINT_RULES.comment.daily_cap);
  });
});

describe("the credit score", () => {
  it("equals the sum of its published products, for generated activity (property test)", async () => {
    for (const seed of [1, 7, 42]) {
      const next = random(seed);
      const subject = await member(`subject-${seed}`);
      const others = [await member(), await member(), await member()];
      const expected = Object.fromEntries(SCORE_INPUTS.map((i) => [i, 0])) as Record<ScoreInput, number>;
      const recent = () => NOW - next(25) * DAY;
      for (let i = next(4); i > 0; i--) {
        const kind = next(2) ? "video" : "document";
        const id = await upload(subject, kind, recent());
        expected[kind === "video" ? "videoUploads" : "documentUploads"]++;
        for (const fan of others.slice(0, next(4))) {
          await env.DB.prepare("INSERT INTO likes (user_id, content_id, created_at) VALUES (?, ?, ?)").bind(fan, id, recent()).run();
          expected[kind === "video" ? "videoLikes" : "documentLikes"]++;
          // A reader's day on the item, as the stats queue folds it into the statistics database (decisions 0039, 0045).
          await env.STATS_DB.prepare(
            `INSERT INTO stat_days (owner_id, content_id, item_kind, day, kind, reader_type, n, readers) VALUES (?, ?, ?, ?, 'view', 1, 1, 1)
             ON CONFLICT DO UPDATE SET n = n + 1, readers = readers + 1`,
          )
            .bind(subject, id, kind, new Date(recent()).toISOString().slice(0, 10))
            .run();
          expected[kind === "video" ? "videoViews" : "documentViews"]++;
        }
      }
      for (const other of others.slice(0, next(4))) {
        await env.DB.prepare("INSERT INTO follows (follower_id, followee_id, created_at) VALUES (?, ?, ?)")
          .bind(other, subject, recent())
          .run();
        expected.followers++;
      }
      // Activity older than the month does not count.
      await upload(subject, "video", NOW - 40 * DAY);
      const points = next(5);
      for (let i = 0; i < points; i++)
        await env.DB.prepare("INSERT INTO points (user_id, reason, amount, day, created_at) VALUES (?, 'x', 3, 'd', ?)")
          .bind(subject, recent())
          .run();
      expected.points = points * 3;

      await recomputeScores(NOW);
      const row = await env.DB.prepare(`SELECT score, breakdown FROM credit_scores WHERE user_id = ? AND run_id = ${PUBLISHED_RUN}`)
        .bind(subject)
        .first<{ score: number; breakdown: string }>();
      // The stored recomputation and the member's own score counted on demand agree.
      const own = await scoreFor(subject, NOW);
      const sum = SCORE_INPUTS.reduce((total, input) => total + Math.round(expected[input] * COEFFICIENTS[input] * 100) / 100, 0);
      expect(row?.score).toBeCloseTo(sum, 2);
      expect(own.score).toBeCloseTo(sum, 2);
      for (const input of SCORE_INPUTS) {
        expect(own.breakdown[input].count, `${seed}:${input}`).toBe(expected[input]);
        expect(JSON.parse(row?.breakdown ?? "{}")[input].count, `${seed}:${input}`).toBe(expected[input]);
      }
      expect(scoreOf(expected).score).toBeCloseTo(sum, 2);
    }
  });

  it("reads the views of a batch's own members, each over the period's days only (the statistics database)", async () => {
    for (const [input, sql] of Object.entries(VIEWS_SQL)) {
      const { results } = await env.STATS_DB.prepare(`EXPLAIN QUERY PLAN ${sql}`)
        .bind("2026-10-01", 1, 1000, "2026-10-31")
        .all<{ detail: string }>();
      const steps = results.map((row) => row.detail);
      // Member by member through the views' index, never the whole table.
      expect(
        steps.some((step) => /SCAN (x|stat_days)\b/.test(step)),
        `${input}: ${steps.join("; ")}`,
      ).toBe(false);
      expect(
        steps.some((step) => /stat_days_views \(owner_id=\? AND item_kind=\? AND day>\? AND day<\?\)/.test(step)),
        `${input}: ${steps.join("; ")}`,
      ).toBe(true);
    }
  });

  it("is recomputed through the queue from the scheduled handler, and equal scores share a rank", async () => {
    const a = await member("Equal A");
    const b = await member("Equal B");
    await upload(a, "document", NOW - DAY);
    await upload(b, "document", NOW - DAY);
    const { run } = await runScheduled({ cron: "*/15 * * * *", scheduledTime: NOW }, NOW);
    await until(async () => (await env.DB.prepare("SELECT published_at FROM score_runs WHERE id = ?").bind(run).first())?.published_at);
    await until(() => env.DB.prepare("SELECT 1 AS done FROM cron_runs WHERE cron = 'cleanup' AND scheduled_at = ?").bind(NOW).first());
    const list = await rankingList(1000);
    const ra = list.find((m) => m.user_id === a);
    const rb = list.find((m) => m.user_id === b);
    expect(ra?.score).toBe(COEFFICIENTS.documentUploads);
    expect(ra?.rank).toBe(rb?.rank);
  });
});
