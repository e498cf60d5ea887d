import { describe, expect, it } from "vitest";
import { multipart, pdfBytes, pngBytes, textFields } from "../fixtures/files";
import { call, registered, userId } from "./api-helpers";

// The social and discovery API (app/api/social.ts): feed, search and its history, likes, comments,
// follows, the ranking and points, each answering its documented shape.

describe("the social and discovery API", () => {
  it("feed, search, like, comment, follow and ranking, each answering its documented shape", async () => {
    const author = await registered();
    const reader = await registered();
    const authorToken = String(author.res.json.data?.access_token);
    const token = String(reader.res.json.data?.access_token);
    const { body, contentType } = multipart([
      ...textFields({ title: "Mangrove restoration notes" }),
      { name: "thumbnail", filename: "t.png", type: "image/png", body: pngBytes() },
      { name: "file", filename: "x.pdf", type: "application/pdf", body: pdfBytes() },
    ]);
    const created = await call("POST", "/contents", {
      token: authorToken,
      raw: { body: await new Response(body).arrayBuffer(), type: contentType },
    });
    const id = (created.json.data as { id: number }).id;

    const feed = await call("GET", "/contents?sort=newest", { token });
    expect((feed.json.data as { items: { id: number }[] }).items.map((i) => i.id)).toContain(id);
    const search = await call("GET", "/search?q=Mangrove", { token });
    expect((search.json.data as { results: { id: number }[] }).results.map((r) => r.id)).toEqual([id]);
    expect((await call("GET", "/search/history", { token })).json.data).toEqual({ history: ["Mangrove"] });

    await call("POST", `/contents/${id}/like`, { token });
    const liked = await call("POST", `/contents/${id}/like`, { token });
    expect(liked.json.data).toMatchObject({ liked: true });
    expect((await call("GET", `/contents/${id}`, { token })).json.data?.content).toMatchObject({ likes: 1 });

    expect((await call("POST", `/contents/${id}/comments`, { token, body: { body: "" } })).status).toBe(400);
    expect((await call("POST", `/contents/${id}/comments`, { token, body: { body: "Useful, thanks" } })).status).toBe(201);
    const comments = (await call("GET", `/contents/${id}/comments`, { token })).json.data as { comments: { id: number; body: string }[] };
    expect(comments.comments.map((c) => c.body)).toEqual(["Useful, thanks"]);
    expect((await call("DELETE", `/comments/${comments.comments[0]?.id}`, { token: authorToken })).status).toBe(404);
    expect((await call("DELETE", `/comments/${comments.comments[0]?.id}`, { token })).json.code).toBe(0);

    const authorId = userId(author.res);
    await call("POST", `/users/${authorId}/follow`, { token });
    expect((await call("POST", `/users/${authorId}/follow`, { token })).json.data).toEqual({ followers: 1 });
    expect((await call("DELETE", `/users/${authorId}/follow`, { token })).json.data).toEqual({ followers: 0 });

    const ranking = await call("GET", "/ranking", { token });
    expect(ranking.status).toBe(200);
    // The reader commented once (1 point); the author uploaded once (10) and was liked once (1).
    const readerPoints = (await call("GET", "/points", { token })).json.data as { awards: { reason: string }[]; period_total: number };
    expect(readerPoints.awards.map((a) => a.reason)).toEqual(["comment"]);
    expect(readerPoints.period_total).toBe(1);
    const authorPoints = (await call("GET", "/points", { token: authorToken })).json.data as {
      awards: { reason: string }[];
      period_total: number;
      rules: object;
    };
    expect(authorPoints.awards.map((a) => a.reason).sort()).toEqual(["like_received", "upload"]);
    expect(authorPoints.period_total).toBe(11);
    expect(authorPoints.rules).toMatchObject({ upload: { amount: 10, daily_cap: 3 } });
  });
});
