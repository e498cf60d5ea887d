import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { htmlBytes, multipart, pngBytes } from "../fixtures/files";
import { call, handleApi, registered, userId } from "./api-helpers";
import { testCaller } from "./helpers";

// The verification API (app/api/verification.ts): a multipart submission judged by its photos' bytes,
// the review queue and its photos for reviewers only, and the decision told to the member.

describe("the verification API", () => {
  it("takes a multipart submission, keeps reviewers' calls to reviewers, and tells the member the decision", async () => {
    const { res } = await registered();
    const token = String(res.json.data?.access_token);
    expect((await call("GET", "/verification", { token })).json.data).toEqual({ kind: "personal", status: "none", reason: null });
    const form = (idBack: Uint8Array) =>
      multipart([
        ...Object.entries({ name: "Ada B", id_number: "X1", address: "1 Lane", contact_phone: "+441234567" }).map(([name, value]) => ({
          name,
          value,
        })),
        { name: "id_front", filename: "front.png", type: "image/png", body: pngBytes() },
        { name: "id_back", filename: "back.png", type: "image/png", body: idBack },
      ]);
    const posing = form(htmlBytes());
    const refused = await call("POST", "/verification", { token, raw: { body: posing.body, type: posing.contentType } });
    expect(refused).toMatchObject({ status: 400, json: { errors: { id_back: ["The image must be PNG or JPG"] } } });
    const good = form(pngBytes());
    expect((await call("POST", "/verification", { token, raw: { body: good.body, type: good.contentType } })).status).toBe(201);
    expect((await call("GET", "/review/verifications", { token })).status).toBe(403);

    const reviewer = await registered();
    const reviewerId = userId(reviewer.res);
    await env.DB.prepare("INSERT INTO member_roles (user_id, role, granted_at) VALUES (?, 'reviewer', 0)").bind(reviewerId).run();
    const reviewerToken = String(reviewer.res.json.data?.access_token);
    const queue = (await call("GET", "/review/verifications", { token: reviewerToken })).json.data as {
      queue: { id: number; user_id: number; fields: Record<string, string>; photos: { name: string; url: string }[] }[];
    };
    const mine = queue.queue.find((item) => item.user_id === userId(res));
    // The fields as the member sent them: snake_case, as the document says (never the form's idNumber).
    expect(mine?.fields).toEqual({ name: "Ada B", id_number: "X1", address: "1 Lane", contact_phone: "+441234567" });
    expect(mine?.photos.map((p) => p.name)).toEqual(["id_front", "id_back"]);
    const photo = async (bearer: string) => {
      const request = new Request(`https://app.test${mine?.photos[0]?.url}`, { headers: { Authorization: `Bearer ${bearer}` } });
      return handleApi({ ...testCaller().caller, request });
    };
    const seen = await photo(reviewerToken);
    expect(seen.status).toBe(200);
    expect(seen.headers.get("Content-Type")).toBe("image/png");
    expect(seen.headers.get("Cache-Control")).toBe("private, no-store");
    expect((await photo(token)).status).toBe(403);
    const decided = await call("POST", `/review/verifications/${mine?.id}`, {
      token: reviewerToken,
      body: { decision: "reject", reason: "Blurred" },
    });
    expect(decided.status).toBe(200);
    expect((await call("POST", `/review/verifications/${mine?.id}`, { token: reviewerToken, body: { decision: "approve" } })).status).toBe(
      404,
    );
    expect((await call("GET", "/verification", { token })).json.data).toMatchObject({ status: "rejected", reason: "Blurred" });
  });
});
