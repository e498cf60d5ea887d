import { describe, expect, it } from "vitest";
import * as robots from "~/routes/robots";
import { callRoute } from "../route";

// What anonymous readers and crawlers are told (decision 0049): with no open record served, nothing.

describe("/robots.txt", () => {
  it("asks every crawler to stay out of the members' site, to anyone, without a session", async () => {
    const answer = await callRoute(robots, { path: "/robots.txt", inLayout: false });
    expect([answer.status, answer.headers.get("Content-Type")]).toEqual([200, "text/plain; charset=utf-8"]);
    expect(answer.body).toBe("User-agent: *\nDisallow: /\n");
  });
});
