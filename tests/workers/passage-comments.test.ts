import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { createSession } from "~/.server/accounts/sessions";
import { fileReport } from "~/.server/moderation/reports";
import { reanchor } from "~/.server/social/anchors";
import { addComment, socialOf } from "~/.server/social/social";
import { MOMENT_MAX_SECONDS, QUOTE_MAX, REANCHOR_BATCH } from "~/lib/limits";
import { makePdf } from "../../scripts/make-pdf.mjs";
import { multipart, pngBytes, textFields } from "../fixtures/files";
import { apiCall as call, apiJson as json } from "./api-call";
import { newItem, newMember, putText, refusalOf, until } from "./helpers";

// Comments on a passage (issue 51): the quote found in the page's text as the text job stored it,
// refused in the member's words when it is not there, private feedback, and a new version that
// keeps the quotes its text still holds.

const PAGES = [
  ["Rainwater harvesting collects the runoff from roofs.", "A first flush diverter sends the dirtiest water away."],
  ["Households with metal roofs reported fewer complaints", "about taste and colour than those with old clay tiles."],
  ["The first flush diverter failed most often."],
];

async function raw(parts: Parameters<typeof multipart>[0]) {
  const { body, contentType } = multipart(parts);
  return { body: await new Response(body).arrayBuffer(), type: contentType };
}

const textDone = (id: number, version: number) =>
  until(async () => {
    const row = await env.DB.prepare("SELECT text_state, version FROM content WHERE id = ?")
      .bind(id)
      .first<{ text_state: string; version: number }>();
    return row?.text_state === "done" && row.version === version;
  });

/** A document uploaded through the API, its text read by the job. */
async function uploadedDocument(pages: string[][]) {
  const owner = await newMember("Annotated Owner");
  const token = await createSession(owner, Date.now());
  const body = await raw([
    ...textFields({ title: `Passages ${crypto.randomUUID().slice(0, 6)}` }),
    { name: "thumbnail", filename: "t.png", type: "image/png", body: pngBytes() },
    { name: "file", filename: "d.pdf", type: "application/pdf", body: makePdf(pages) },
  ]);
  const id = Number((await json(await call(token, "POST", "/contents", body))).data?.id);
  await textDone(id, 1);
  return { owner, token, id };
}

const commentsOf = async (viewer: number, id: number, owner: number) => (await socialOf(viewer, id, owner)).comments;

describe("a comment on a passage of a document", () => {
  it("finds the quote on its page across a line break, keeps its context, and refuses what the page does not hold", async () => {
    const { owner, token, id } = await uploadedDocument(PAGES);
    const reader = await newMember("Close Reader");
    // Typed with one space where the page breaks the line.
    await addComment(reader, id, "Which roofs?", 1, undefined, undefined, { page: 2, quote: "reported fewer complaints about taste" });
    const [comment] = await commentsOf(reader, id, owner);
    expect(comment?.anchor).toEqual({
      page: 2,
      exact: "reported fewer complaints about taste",
      prefix: "Households with metal roofs ",
      suffix: " and colour than those with old ",
    });
    expect(comment?.anchor_version).toBe(1);
    const refused = (passage: Parameters<typeof addComment>[6]) =>
      refusalOf(addComment(reader, id, `Refused ${JSON.stringify(passage)}`, 2, undefined, undefined, passage));
    expect(await refused({ page: 1, quote: "reported fewer complaints" })).toEqual({
      key: "validation.quoteNotFound|page=1",
      field: "quote",
      status: 400,
    });
    expect(await refused({ page: 4, quote: "roofs" })).toMatchObject({ key: "validation.pageOutside|pages=3", field: "page" });
    expect(await refused({ quote: "roofs" })).toMatchObject({ key: "validation.pageMissing", field: "page" });
    expect(await refused({ page: 2 })).toMatchObject({ key: "validation.quoteMissing", field: "quote" });
    // Nothing refused was stored.
    expect(await commentsOf(reader, id, owner)).toHaveLength(1);
    // Through the API too, where the same words twice on a page are told apart by their context.
    const second = await call(token, "POST", `/contents/${id}/comments`, {
      body: JSON.stringify({ body: "This one fails", page: 3, quote: "first flush diverter", prefix: "The " }),
      type: "application/json",
    });
    expect(second.status).toBe(201);
    const notThere = await call(token, "POST", `/contents/${id}/comments`, {
      body: JSON.stringify({ body: "Where?", page: 1, quote: "clay tiles" }),
      type: "application/json",
    });
    expect([notThere.status, (await json(notThere)).errors?.quote?.[0]]).toEqual([
      400,
      "Page 1 does not have these words. Copy them as the page shows them.",
    ]);
    expect((await commentsOf(owner, id, owner)).map((c) => c.anchor && "page" in c.anchor && [c.anchor.page, c.anchor.prefix])).toEqual([
      [2, "Households with metal roofs "],
      [3, "The "],
    ]);
  });

  it("refuses a quote while the document's text is not read, and a reply points where its thread does", async () => {
    const owner = await newMember("Unread Owner");
    const reader = await newMember("Early Reader");
    const id = await newItem(owner);
    const early = await refusalOf(addComment(reader, id, "Too soon", 1, undefined, undefined, { page: 1, quote: "wells" }));
    expect(early).toMatchObject({ key: "validation.quoteNoText", field: "quote" });
    await putText(id, "The wells ran dry.\fIn the second year they filled again.");
    await addComment(reader, id, "Both years?", 2, undefined, undefined, { page: 2, quote: "filled again" });
    const [root] = await commentsOf(reader, id, owner);
    await addComment(owner, id, "Yes", 3, undefined, root?.id, { page: 1, quote: "wells" });
    const reply = (await commentsOf(reader, id, owner)).find((c) => c.parent_id === root?.id);
    expect([reply?.body, reply?.anchor]).toEqual(["Yes", null]);
  });
});

describe("private feedback", () => {
  it("is seen by the owner and its author, its replies too, and heard by nobody else", async () => {
    const owner = await newMember("Feedback Owner");
    const reviewer = await newMember("Private Reviewer");
    const other = await newMember(`Bystander ${crypto.randomUUID().slice(0, 6)}`);
    const id = await newItem(owner);
    await addComment(
      reviewer,
      id,
      `Table 2 is off, @${(await env.DB.prepare("SELECT nick_name FROM users WHERE id = ?").bind(other).first("nick_name")) as string}`,
      1,
      undefined,
      undefined,
      {
        private: "1",
      },
    );
    await addComment(other, id, "A public word", 2);
    const [feedback] = (await commentsOf(owner, id, owner)).filter((c) => c.private);
    expect(feedback?.user_id).toBe(reviewer);
    await addComment(owner, id, "Thank you, fixed", 3, undefined, feedback?.id);
    const seen = async (viewer: number) => (await commentsOf(viewer, id, owner)).map((c) => [c.body.slice(0, 8), c.private]);
    expect(await seen(owner)).toEqual([
      ["Table 2 ", 1],
      ["A public", 0],
      ["Thank yo", 1],
    ]);
    expect(await seen(reviewer)).toEqual(await seen(owner));
    expect(await seen(other)).toEqual([["A public", 0]]);
    // Nobody else may answer in it, and the member it mentions is not told of what they cannot read.
    expect(await refusalOf(addComment(other, id, "Let me in", 4, undefined, feedback?.id))).toMatchObject({ key: "validation.replyGone" });
    // Only those who see it may report it.
    const report = (by: number) =>
      refusalOf(fileReport(by, { target_type: "comment", target_id: feedback?.id ?? 0, reason: "spam", details: "" }, 5));
    expect(await report(other)).toMatchObject({ status: 403 });
    expect(await report(owner)).toBe("not refused");
    const heard = await env.DB.prepare("SELECT user_id, kind FROM notifications WHERE subject_id = ? ORDER BY id").bind(id).all();
    expect(heard.results).toEqual([
      { user_id: owner, kind: "comment" },
      { user_id: owner, kind: "comment" },
      { user_id: reviewer, kind: "reply" },
    ]);
  });
});

describe("a new version", () => {
  it("keeps the comments whose quote its text still holds, on their new page, and leaves the others on theirs", async () => {
    const { owner, token, id } = await uploadedDocument(PAGES);
    const reader = await newMember("Version Reader");
    await addComment(reader, id, "Kept", 1, undefined, undefined, { page: 2, quote: "metal roofs reported fewer" });
    await addComment(reader, id, "Gone", 2, undefined, undefined, { page: 3, quote: "failed most often" });
    const file = makePdf([["A new first page: households with metal", "roofs reported fewer complaints."], ["The diverter worked."]]);
    const added = await call(
      token,
      "POST",
      `/contents/${id}/versions`,
      await raw([
        { name: "note", value: "Rewritten" },
        { name: "file", filename: "v.pdf", type: "application/pdf", body: file },
      ]),
    );
    expect(added.status).toBe(201);
    await textDone(id, 2);
    const anchors = () =>
      env.DB.prepare("SELECT body, anchor_version, anchor_checked, anchor FROM comments WHERE content_id = ? ORDER BY id").bind(id).all();
    await until(async () => (await anchors()).results.every((row) => row.anchor_checked === 2));
    const rows = (await commentsOf(owner, id, owner)).map((c) => [
      c.body,
      c.anchor_version,
      c.anchor && "page" in c.anchor && c.anchor.page,
    ]);
    expect(rows).toEqual([
      ["Kept", 2, 1],
      ["Gone", 1, 3],
    ]);
    // Checked once per version: the job again changes nothing.
    const before = (await anchors()).results;
    await reanchor(id);
    expect((await anchors()).results).toEqual(before);
  });
});

describe("a passage's bounds", () => {
  it("refuse a quote longer than QUOTE_MAX and a moment past MOMENT_MAX_SECONDS, through the API", async () => {
    const owner = await newMember("Bounded Owner");
    const document = await newItem(owner);
    await putText(document, "x".repeat(QUOTE_MAX + 10));
    const video = await newItem(owner, { kind: "video" });
    const token = await createSession(owner, Date.now());
    const post = (id: number, passage: Record<string, unknown>) =>
      call(token, "POST", `/contents/${id}/comments`, {
        body: JSON.stringify({ body: `Bound ${JSON.stringify(passage).length}`, ...passage }),
        type: "application/json",
      });
    const tooLong = await post(document, { page: 1, quote: "x".repeat(QUOTE_MAX + 1) });
    expect([tooLong.status, (await json(tooLong)).errors?.quote?.[0]]).toEqual([400, `A quote can be at most ${QUOTE_MAX} characters.`]);
    expect((await post(document, { page: 1, quote: "x".repeat(QUOTE_MAX) })).status).toBe(201);
    const late = await post(video, { at: MOMENT_MAX_SECONDS + 1 });
    expect([late.status, (await json(late)).errors?.at?.[0]]).toEqual([400, "Give a time as minutes:seconds, like 1:05."]);
    expect((await post(video, { at: "24:00:00" })).status).toBe(201);
  });

  it("re-anchor at most REANCHOR_BATCH comments a run, and queue the rest", async () => {
    const owner = await newMember("Many Quotes");
    const id = await newItem(owner);
    await putText(id, "The wells ran dry in the second year.");
    await env.DB.prepare(
      `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?3)
       INSERT INTO comments (content_id, user_id, body, created_at, anchor, anchor_version, anchor_checked)
       SELECT ?1, ?2, 'Quote ' || i, i, json_object('page', 1, 'exact', 'wells ran dry', 'prefix', 'The ', 'suffix', ' in'), 1, 1 FROM n`,
    )
      .bind(id, owner, REANCHOR_BATCH + 5)
      .run();
    // A second version whose text still holds the quote.
    await env.DB.prepare("UPDATE content SET version = 2 WHERE id = ?").bind(id).run();
    expect(await reanchor(id)).toBe(REANCHOR_BATCH);
    // The queued run checks the rest.
    await until(async () => {
      const left = await env.DB.prepare("SELECT count(*) AS n FROM comments WHERE content_id = ? AND anchor_checked < 2")
        .bind(id)
        .first("n");
      return left === 0;
    });
    const kept = await env.DB.prepare("SELECT count(*) AS n FROM comments WHERE content_id = ? AND anchor_version = 2").bind(id).first("n");
    expect(kept).toBe(REANCHOR_BATCH + 5);
  });
});

describe("a comment on a moment of a video", () => {
  it("stores the moment, and refuses an end before its start", async () => {
    const owner = await newMember("Video Owner");
    const reader = await newMember("Video Reader");
    const id = await newItem(owner, { kind: "video" });
    await addComment(reader, id, "At this moment", 1, undefined, undefined, { at: 62, until: 70 });
    expect((await commentsOf(reader, id, owner))[0]?.anchor).toEqual({ start: 62, end: 70 });
    expect(await refusalOf(addComment(reader, id, "Backwards", 2, undefined, undefined, { at: 62, until: 60 }))).toMatchObject({
      key: "validation.momentOrder",
      field: "until",
    });
  });
});
