import { describe, expect, it } from "vitest";
import ja from "#locales/ja/translation";
import { call, registered, userId } from "./api-helpers";

// The members API (app/api/members.ts): member pages, interests, recommendations and tags, each
// answering its documented shape.

describe("the social and discovery API", () => {
  it("member pages, interests and recommendations, each answering its documented shape", async () => {
    const author = await registered();
    const reader = await registered();
    const token = String(reader.res.json.data?.access_token);
    const authorId = userId(author.res);
    await call("POST", `/users/${authorId}/follow`, { token });
    const page = await call("GET", `/members/${authorId}`, { token });
    expect(page.json.data).toMatchObject({ is_self: false, viewer_follows: true, member: { id: authorId, followers: 1 } });
    expect((await call("GET", "/members/987654321", { token })).status).toBe(404);

    expect((await call("POST", "/interests", { token, body: { sdg: 4 } })).json.data).toEqual({ interests: [4] });
    const repeat = await call("POST", "/interests", { token, body: { sdg: 4 }, language: "ja" });
    expect(repeat.status).toBe(400);
    expect(repeat.json.message).toBe(ja.validation.repeatAddition);
    expect((await call("POST", "/interests", { token, body: { sdg: 18 } })).status).toBe(400);
    expect((await call("DELETE", "/interests/4", { token })).json.data).toEqual({ interests: [] });
    expect((await call("GET", "/interests", { token })).json.data).toEqual({ interests: [] });

    const picks = await call("GET", "/recommendations?page=1", { token });
    expect(picks.json.data).toMatchObject({ page: 1, has_more: expect.any(Boolean) });
    expect((await call("GET", "/recommendations", {})).json.code).toBe(4010);
  });
});

describe("the tags API", () => {
  it("adds tags up to the membership level's limit, refuses a repeat and one more, and removes", async () => {
    const { res } = await registered();
    const token = String(res.json.data?.access_token);
    const start = await call("GET", "/tags", { token });
    expect(start.json.data).toMatchObject({ tags: [], level: "free", limit: 3 });
    for (const tag of ["Innovation", "ocean acidification", "科学"])
      expect((await call("POST", "/tags", { token, body: { tag } })).status).toBe(201);
    const repeat = await call("POST", "/tags", { token, body: { tag: "innovation" }, language: "ja" });
    expect(repeat).toMatchObject({ status: 400, json: { errors: { tag: [ja.validation.repeatAddition] } } });
    const more = await call("POST", "/tags", { token, body: { tag: "one more" } });
    expect(more).toMatchObject({ status: 400, json: { errors: { tag: ["Your membership level allows 3 tags"] } } });
    const listed = (await call("GET", "/tags", { token })).json.data as { tags: { id: number; tag: string }[] };
    expect(listed.tags.map((t) => t.tag)).toEqual(["innovation", "ocean acidification", "science"]);
    const removed = await call("DELETE", `/tags/${listed.tags[0]?.id}`, { token });
    expect((removed.json.data as { tags: unknown[] }).tags).toHaveLength(2);
  });
});
