import { describe, expect, it } from "vitest";
import { annotationErrors, collectionErrors, pageErrors } from "../annotation-model";

// The validator of tests/annotation-model.ts passes what the W3C Web Annotation Data Model's examples pass and
// names each MUST of web-platform-tests' annotation-model suite that a value breaks.

const CONTEXT = "http://www.w3.org/ns/anno.jsonld";

const ANNOTATION = {
  "@context": CONTEXT,
  id: "http://example.org/anno1",
  type: "Annotation",
  body: { type: "TextualBody", value: "x", format: "text/plain" },
  target: {
    source: "http://example.org/doc.pdf",
    selector: [
      { type: "TextQuoteSelector", exact: "a", prefix: "b", suffix: "c" },
      { type: "FragmentSelector", conformsTo: "http://tools.ietf.org/rfc/rfc3778", value: "page=2" },
    ],
  },
};

const COLLECTION = {
  "@context": CONTEXT,
  id: "http://example.org/collection1",
  type: "AnnotationCollection",
  label: "Steampunk Annotations",
  total: 42023,
  first: "http://example.org/page1",
  last: "http://example.org/page42",
};

const PAGE = {
  "@context": CONTEXT,
  id: "http://example.org/page1",
  type: "AnnotationPage",
  partOf: { id: "http://example.org/collection1", label: "Steampunk Annotations", total: 42023 },
  next: "http://example.org/page2",
  startIndex: 0,
  items: [
    { id: "http://example.org/anno1", type: "Annotation", body: "http://example.net/comment1", target: "http://example.com/book/chapter1" },
  ],
};

/** The value without one key. */
const without = <T extends Record<string, unknown>>(value: T, key: keyof T) =>
  Object.fromEntries(Object.entries(value).filter(([k]) => k !== key));

describe("an annotation", () => {
  it("with every MUST met has no errors", () => {
    expect(annotationErrors(ANNOTATION)).toEqual([]);
    expect(
      annotationErrors({ ...ANNOTATION, "@context": [CONTEXT, { extra: "http://example.org/ns#extra" }], type: ["Annotation"] }),
    ).toEqual([]);
    expect(annotationErrors({ ...ANNOTATION, body: undefined, bodyValue: "Comment text" })).toEqual([]);
    expect(annotationErrors({ ...ANNOTATION, created: "2015-01-28T12:00:00Z", motivation: "commenting" })).toEqual([]);
  });

  it("without the anno.jsonld @context fails that assertion", () => {
    const errors = annotationErrors(without(ANNOTATION, "@context"));
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatch(/^annotations\/3\.1-annotationContextValidated\.json: ERROR: /);
    expect(annotationErrors({ ...ANNOTATION, "@context": "http://example.org/context.jsonld" })).toHaveLength(1);
  });

  it("of a type other than Annotation fails", () => {
    expect(annotationErrors({ ...ANNOTATION, type: "Anno" })).toEqual([
      expect.stringMatching(/^annotations\/3\.1-annotationTypeValidated\.json: /),
    ]);
  });

  it("without a target fails", () => {
    expect(annotationErrors(without(ANNOTATION, "target"))).toContainEqual(
      expect.stringMatching(/^annotations\/3\.1-targetKeyFound\.json: /),
    );
  });

  it("without an id, or with both body and bodyValue, or a created time that is no date-time fails", () => {
    expect(annotationErrors(without(ANNOTATION, "id"))).toEqual([
      expect.stringMatching(/^annotations\/3\.1-annotationIdValidated\.json: /),
    ]);
    expect(annotationErrors({ ...ANNOTATION, bodyValue: "x" })).toContainEqual(
      expect.stringMatching(/^annotations\/3\.2\.5-notBodyBodyValue\.json: /),
    );
    expect(annotationErrors({ ...ANNOTATION, created: "yesterday" })).toEqual([
      expect.stringMatching(/^annotations\/3\.3\.1-annotationCreatedValidated\.json: /),
    ]);
  });

  it("is judged as wpt's Ajv 4.0.4 judges it, leniencies included", () => {
    // A reference to specificeResourceDetected lands on its own $ref (sourceDetected), the anyOf beside it unread.
    expect(annotationErrors({ ...ANNOTATION, target: { source: "http://example.org/doc.pdf" } })).toEqual([]);
    // Ajv's "fast" uri format takes a relative reference; an id with a space is still refused.
    expect(annotationErrors({ ...ANNOTATION, id: "/annotations/1" })).toEqual([]);
    expect(annotationErrors({ ...ANNOTATION, id: "anno 1" })).toEqual([
      expect.stringMatching(/^annotations\/3\.1-annotationIdValidated\.json: /),
    ]);
    // Nor is a target without a source or an id anything the model names.
    expect(annotationErrors({ ...ANNOTATION, target: { type: "Text" } })).toEqual([
      expect.stringMatching(/^annotations\/3\.2-targetObjectsRecognized\.json: /),
    ]);
  });

  it("that has no JSON form fails as wpt's unparsable input does", () => {
    expect(annotationErrors(undefined)).toEqual([expect.stringMatching(/^Parse of JSON failed/)]);
  });
});

describe("an annotation collection", () => {
  it("with every MUST met has no errors", () => {
    expect(collectionErrors(COLLECTION)).toEqual([]);
    expect(collectionErrors({ ...COLLECTION, first: { ...without(PAGE, "partOf"), id: "http://example.org/page1" } })).toEqual([]);
  });

  it("without @context, of another type, or with a negative total fails each", () => {
    expect(collectionErrors(without(COLLECTION, "@context"))).toEqual([
      expect.stringMatching(/^collections\/5\.1-collectionContextValidated\.json: /),
    ]);
    expect(collectionErrors({ ...COLLECTION, type: "Collection" })).toEqual([
      expect.stringMatching(/^collections\/5\.1-collectionTypeValidated\.json: /),
    ]);
    expect(collectionErrors({ ...COLLECTION, total: -1 })).toEqual([
      expect.stringMatching(/^collections\/5\.1-collectionTotalValidated\.json: /),
    ]);
  });
});

describe("an annotation page", () => {
  it("with every MUST met has no errors", () => {
    expect(pageErrors(PAGE)).toEqual([]);
  });

  it("without items, of another type, or with a negative startIndex fails each", () => {
    expect(pageErrors(without(PAGE, "items"))).toEqual([expect.stringMatching(/^collections\/pages\/5\.2-pageItemsValidated\.json: /)]);
    expect(pageErrors({ ...PAGE, type: "Page" })).toContainEqual(
      expect.stringMatching(/^collections\/pages\/5\.2-pageTypeValidated\.json: /),
    );
    expect(pageErrors({ ...PAGE, startIndex: -1 })).toEqual([
      expect.stringMatching(/^collections\/pages\/5\.2-pageStartIndexValidated\.json: /),
    ]);
  });
});
