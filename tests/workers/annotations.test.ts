import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { exportData } from "~/.server/accounts/export-data";
import { createSession } from "~/.server/accounts/sessions";
import { addComment } from "~/.server/social/social";
import { ANNOTATION_PAGE_SIZE } from "~/lib/limits";
import { annotationErrors, collectionErrors, pageErrors } from "../annotation-model";
import { apiCall as call } from "./api-call";
import { newItem, newMember, putText } from "./helpers";

// An item's comments on passages as W3C Web Annotations (issue 51), through the API and the data
// export: every annotation, collection and page judged by the MUST assertions of web-platform-tests'
// annotation-model suite (tests/annotation-model.ts), paged as the Annotation Protocol pages. Its
// own isolate (vitest.config.ts): the validator reads the global `location` as it loads, which the
// image codecs of other files set to what it cannot read.

type Json = Record<string, unknown>;
const MEDIA_TYPE = 'application/ld+json; profile="http://www.w3.org/ns/anno.jsonld"';

async function annotations(token: string, id: number, page?: number) {
  const answer = await call(token, "GET", `/contents/${id}/annotations${page === undefined ? "" : `?page=${page}`}`);
  expect([answer.status, answer.headers.get("Content-Type")]).toEqual([200, MEDIA_TYPE]);
  return (await answer.json()) as Json;
}

/** Each annotation of the page, and the page itself, as the suite judges them: the failures. */
const failures = (page: Json) => [
  ...pageErrors({ "@context": "http://www.w3.org/ns/anno.jsonld", ...page }),
  ...(page.items as Json[]).flatMap((item) => annotationErrors({ "@context": "http://www.w3.org/ns/anno.jsonld", ...item })),
];

describe("an item's annotations", () => {
  it("are its comments on passages and their replies, as the viewer may see them, each valid", async () => {
    const owner = await newMember("Annotation Owner");
    const reviewer = await newMember("Annotation Reviewer");
    const id = await newItem(owner, { title: "Wells and roofs" });
    await putText(id, "The wells ran dry.\fIn the second year they filled again.");
    const passage = { page: 2, quote: "filled again" };
    await addComment(reviewer, id, "Both years?", 1, undefined, undefined, passage);
    await addComment(reviewer, id, "On the whole work", 2);
    await addComment(reviewer, id, "Private: which wells?", 3, undefined, undefined, { page: 1, quote: "wells", private: "1" });
    const [root] = (
      await env.DB.prepare("SELECT id FROM comments WHERE content_id = ? AND anchor IS NOT NULL ORDER BY id").bind(id).all<{ id: number }>()
    ).results;
    await addComment(owner, id, "Yes, both.", 4, undefined, root?.id);

    const ownerToken = await createSession(owner, Date.now());
    const collection = await annotations(ownerToken, id);
    expect(collectionErrors(collection)).toEqual([]);
    const first = collection.first as Json;
    expect(failures(first)).toEqual([]);
    expect(collection).toMatchObject({ type: "AnnotationCollection", label: "Wells and roofs", total: 3 });
    const [quoted, privately, reply] = first.items as Json[];
    expect(quoted).toMatchObject({
      motivation: "commenting",
      body: { type: "TextualBody", value: "Both years?", format: "text/plain" },
      target: {
        source: `https://app.test/files/${id}`,
        selector: {
          type: "FragmentSelector",
          conformsTo: "http://tools.ietf.org/rfc/rfc3778",
          value: "page=2",
          refinedBy: { type: "TextQuoteSelector", exact: "filled again", prefix: "In the second year they ", suffix: "." },
        },
      },
    });
    expect(privately?.body).toMatchObject({ value: "Private: which wells?" });
    expect(reply).toMatchObject({ motivation: "replying", target: quoted?.id, body: { value: "Yes, both." } });

    // Another member is not shown the private feedback.
    const other = await newMember("Annotation Stranger");
    const seen = await annotations(await createSession(other, Date.now()), id);
    expect([seen.total, ((seen.first as Json).items as Json[]).map((item) => (item.body as Json).value)]).toEqual([
      2,
      ["Both years?", "Yes, both."],
    ]);
  });

  it("come a page at a time, each page part of the collection, and moments of a video are media fragments", async () => {
    const owner = await newMember("Paged Owner");
    const id = await newItem(owner, { kind: "video" });
    await addComment(owner, id, "At one minute", 1, undefined, undefined, { at: 60, until: 65.5 });
    // More than a page, written at once.
    await env.DB.prepare(
      `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?3)
       INSERT INTO comments (content_id, user_id, body, created_at, anchor, anchor_version, anchor_checked)
       SELECT ?1, ?2, 'Moment ' || i, i, json_object('start', i, 'end', NULL), 1, 1 FROM n`,
    )
      .bind(id, owner, ANNOTATION_PAGE_SIZE)
      .run();
    const token = await createSession(owner, Date.now());
    const collection = await annotations(token, id);
    expect(collectionErrors(collection)).toEqual([]);
    const base = `https://app.test/api/contents/${id}/annotations`;
    expect(collection).toMatchObject({
      total: ANNOTATION_PAGE_SIZE + 1,
      first: { id: `${base}?page=0`, next: `${base}?page=1` },
      last: `${base}?page=1`,
    });
    const second = await annotations(token, id, 1);
    expect(pageErrors(second)).toEqual([]);
    expect(failures(second)).toEqual([]);
    expect(second).toMatchObject({
      startIndex: ANNOTATION_PAGE_SIZE,
      prev: `${base}?page=0`,
      partOf: { id: base, total: ANNOTATION_PAGE_SIZE + 1 },
    });
    expect(second.next).toBeUndefined();
    expect((second.items as { target: Json }[])[0]?.target.selector).toEqual({
      type: "FragmentSelector",
      conformsTo: "http://www.w3.org/TR/media-frags/",
      value: `t=${ANNOTATION_PAGE_SIZE}`,
    });
    expect(((collection.first as Json).items as { target: Json }[])[0]?.target.selector).toMatchObject({ value: "t=60,65.5" });
    // A page past the end is empty, and still a page of the collection.
    expect(await annotations(token, id, 5)).toMatchObject({ items: [], startIndex: 5 * ANNOTATION_PAGE_SIZE });
  });

  it("are in the owner's data export, one collection per item, every annotation in it", async () => {
    const owner = await newMember("Exporting Owner");
    const reader = await newMember("Exported Reader");
    const id = await newItem(owner, { title: "Exported work" });
    await putText(id, "Rain fell for forty days.");
    await addComment(reader, id, "Forty?", 1, undefined, undefined, { page: 1, quote: "forty days" });
    await newItem(owner, { title: "Nothing quoted" });
    const exported = JSON.parse(await new Response(exportData(owner, Date.now(), "https://app.test")).text()) as { annotations: Json[] };
    expect(exported.annotations.map((c) => [c.label, c.total])).toEqual([["Exported work", 1]]);
    const [collection] = exported.annotations;
    expect(collectionErrors(collection)).toEqual([]);
    expect(failures(collection?.first as Json)).toEqual([]);
  });
});
