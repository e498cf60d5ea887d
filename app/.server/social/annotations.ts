import { env } from "~/.server/bindings";
import { ANNOTATION_PAGE_SIZE } from "~/lib/limits";
import { type Anchor, anchorOf } from "./anchors";
import { SEES_COMMENT } from "./block-rules";

// An item's comments on passages as W3C Web Annotations (docs/decisions/0051): each a TextualBody
// on its file, a page (FragmentSelector, RFC 3778) refined by the quote (TextQuoteSelector), or a
// moment (FragmentSelector, Media Fragments); a reply is an annotation "replying" to its thread's.
// Collected as an AnnotationCollection paged as the Annotation Protocol pages containers.

export const ANNOTATION_CONTEXT = "http://www.w3.org/ns/anno.jsonld";
/** The Annotation Protocol's media type. */
export const ANNOTATION_MEDIA_TYPE = `application/ld+json; profile="${ANNOTATION_CONTEXT}"`;

interface AnnotationRow {
  id: number;
  user_id: number;
  nick_name: string;
  body: string;
  created_at: number;
  parent_id: number | null;
  anchor: string | null;
  anchor_version: number | null;
  version: number;
}

/** Comments on a passage and the replies in their threads that the viewer sees, oldest first. */
const ANNOTATED = (viewer: string) => `FROM comments c JOIN users u ON u.id = c.user_id AND u.deleted_at IS NULL
  JOIN content i ON i.id = c.content_id
  WHERE c.content_id = ?1 AND c.hidden_at IS NULL AND c.deleted_at IS NULL AND ${SEES_COMMENT("c", viewer)}
    AND (c.anchor IS NOT NULL OR EXISTS (SELECT 1 FROM comments t WHERE t.id = c.parent_id AND t.anchor IS NOT NULL))`;

const commentIri = (origin: string, item: number, comment: number) => `${origin}/retrieval/detail?id=${item}#comment-${comment}`;

/** Where an anchor points, as a selector. */
function selectorOf(anchor: Anchor) {
  if ("page" in anchor)
    return {
      type: "FragmentSelector",
      conformsTo: "http://tools.ietf.org/rfc/rfc3778",
      value: `page=${anchor.page}`,
      refinedBy: { type: "TextQuoteSelector", exact: anchor.exact, prefix: anchor.prefix, suffix: anchor.suffix },
    };
  return {
    type: "FragmentSelector",
    conformsTo: "http://www.w3.org/TR/media-frags/",
    value: `t=${anchor.start}${anchor.end === null ? "" : `,${anchor.end}`}`,
  };
}

/** One comment as a Web Annotation. */
function annotationOf(row: AnnotationRow, origin: string, item: number) {
  const anchor = anchorOf(row.anchor);
  // A quote on an earlier version points into that version's file.
  const earlier = row.anchor_version !== null && row.anchor_version < row.version ? `?version=${row.anchor_version}` : "";
  return {
    id: commentIri(origin, item, row.id),
    type: "Annotation",
    motivation: anchor ? "commenting" : "replying",
    created: new Date(row.created_at).toISOString(),
    creator: { id: `${origin}/personal?member=${row.user_id}`, type: "Person", nickname: row.nick_name },
    body: { type: "TextualBody", value: row.body, format: "text/plain" },
    target: anchor
      ? { source: `${origin}/files/${item}${earlier}`, selector: selectorOf(anchor) }
      : commentIri(origin, item, row.parent_id ?? 0),
  };
}

/**
 * Page `page` (from 0) of the item's annotations the viewer sees, and the collection it is part of;
 * `all` puts every annotation in the one page (the member's data export).
 */
export async function annotationPage(viewerId: number, item: { id: number; title: string }, origin: string, page: number, all = false) {
  const db = env.DB;
  const size = all ? -1 : ANNOTATION_PAGE_SIZE;
  const [counted, rows] = await db.batch([
    db.prepare(`SELECT count(*) AS n ${ANNOTATED("?2")}`).bind(item.id, viewerId),
    db
      .prepare(
        `SELECT c.id, c.user_id, u.nick_name, c.body, c.created_at, c.parent_id, c.anchor, c.anchor_version, i.version
         ${ANNOTATED("?2")} ORDER BY c.id LIMIT ?3 OFFSET ?4`,
      )
      .bind(item.id, viewerId, size, all ? 0 : page * ANNOTATION_PAGE_SIZE),
  ]);
  const total = Number((counted?.results[0] as { n: number } | undefined)?.n ?? 0);
  const pages = all ? 1 : Math.ceil(total / ANNOTATION_PAGE_SIZE);
  const collectionId = `${origin}/api/contents/${item.id}/annotations`;
  const pageId = (n: number) => `${collectionId}?page=${n}`;
  const collection = {
    id: collectionId,
    type: "AnnotationCollection",
    label: item.title,
    total,
    ...(total ? { first: pageId(0), last: pageId(all ? 0 : pages - 1) } : {}),
  };
  const items = ((rows?.results ?? []) as AnnotationRow[]).map((row) => annotationOf(row, origin, item.id));
  return {
    collection,
    page: {
      id: pageId(page),
      type: "AnnotationPage",
      partOf: collection,
      startIndex: all ? 0 : page * ANNOTATION_PAGE_SIZE,
      items,
      ...(page + 1 < pages ? { next: pageId(page + 1) } : {}),
      ...(page > 0 && page <= pages ? { prev: pageId(page - 1) } : {}),
    },
  };
}

/** The collection with its first page inside, as the Annotation Protocol answers a container. */
export async function annotationCollection(viewerId: number, item: { id: number; title: string }, origin: string, all = false) {
  const { collection, page } = await annotationPage(viewerId, item, origin, 0, all);
  const { partOf: _, ...first } = page;
  return { "@context": ANNOTATION_CONTEXT, ...collection, ...(collection.total ? { first } : {}) };
}
