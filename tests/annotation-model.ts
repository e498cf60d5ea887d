/**
 * The W3C Web Annotation Data Model's MUST assertions, as web-platform-tests states and runs them (its
 * annotation-model suite, copied into tests/fixtures/annotation-model; the README there names the commit), for tests
 * in Node and in workerd to check annotations, collections and pages: each function returns the MUSTs the value fails.
 *
 * The `.test` files are imported through `.test.json` copies (a JSON import needs the extension), everything else
 * statically, so no file system is read.
 *
 * What this follows, from wpt's annotation-model/scripts/JSONtest.js and the CONTRIBUTING.md beside it:
 * - A test's `assertions` is an ordered list. An entry is the path of an assertion file (from annotation-model/), an
 *   object with `assertionFile` (that file, its keys overridden by the object's others), an inline assertion (a JSON
 *   Schema with the keys below), a nested list, or a condition object (one with `assertions`), whose result is its
 *   children's combined by `compareWith`: "or" (one must pass) or "and" (every one, the default).
 * - A result is as expected when the value validates and `expectedResult` is "valid" (the default), or fails to and it
 *   is "invalid"; a condition's is its children's combination.
 * - After an unexpected result `onUnexpectedResult` (default failAndContinue) says what follows: *AndContinue the next
 *   entry, *AndSkip nothing more of the list it is in, *AndAbort nothing more at all.
 * - `assertionType` is "must" (the default, and any unknown value), "should" or "may". Only unexpected MUST results are
 *   returned (wpt marks should and may ones as warnings), and none of a type the test's `skipFailures` lists.
 * Where JSONtest.js falls short of its own documentation this keeps the documented behaviour: a nested list's abort
 * stops the list above it (JSONtest reads a field it never sets, then compiles the list itself as a schema), an object
 * with `assertions` is a condition without `compareWith` too, and a condition's children are not reported one by one,
 * only the condition. The MUST tests at the copied commit use none of these: each lists assertion files, every one
 * "must", "valid" and "failAndContinue".
 *
 * Validation: wpt runs these with Ajv 4.0.4 (its "fast" formats), having added the definitions files by their `id`s
 * (the schemaDefs of annotationMusts-manual.html, collectionMusts-manual.html and pageMusts-manual.html: all seven). Here
 * the definitions and assertion files are dereferenced into one lookup under one base, so that their relative `id`s
 * ("id.json", "3.1-annotationIdValidated.json") and references ("id.json#/definitions/idValueFound") resolve side by
 * side as they did for Ajv, and validated as draft-04, their `$schema`, with three changes (to copies of the schemas,
 * and to the lookup) so that the verdicts are Ajv 4.0.4's:
 * - Ajv 4 applies a `$ref`'s sibling keywords as well where draft-04 and @cfworker/json-schema ignore them: such a
 *   `$ref` is moved into an `allOf` beside them.
 * - But a `$ref` that points at a node with a `$ref` of its own lands on that one's target, the node's siblings unread
 *   (Ajv's pointer walk follows every `$ref` it meets): the lookup sends it there. So specificResource.json's
 *   `specificeResourceDetected`, a `$ref` to sourceDetected beside an `anyOf`, asks for a `source` and nothing more
 *   wherever it is referenced, and a target that is only a `source` passes.
 * - Ajv 4's fast `uri` and `date-time` formats are looser than @cfworker/json-schema's (a relative reference passes as a
 *   uri, a non-ASCII IRI too): they are replaced by the same regular expressions, as `pattern`s.
 * Checked against that Ajv, run on wpt's copy of it, over the spec's examples 1-20 (wpt's tools/samples) and 2,300
 * mutations of them and of a collection and a page: the same assertions failed for every one.
 *
 * @cfworker/json-schema reads the global `location` as it loads (see tests/workers/api-helpers.ts): in workerd, load
 * this before anything that sets `location` to what it cannot read. Every `id` here is resolved against BASE, never
 * against `location`.
 */
import { dereference, type Schema, validate } from "@cfworker/json-schema";
import annotationContextValidated from "./fixtures/annotation-model/annotations/3.1-annotationContextValidated.json";
import annotationIdValidated from "./fixtures/annotation-model/annotations/3.1-annotationIdValidated.json";
import annotationTypeValidated from "./fixtures/annotation-model/annotations/3.1-annotationTypeValidated.json";
import targetKeyFound from "./fixtures/annotation-model/annotations/3.1-targetKeyFound.json";
import bodyValueValidated from "./fixtures/annotation-model/annotations/3.2.5-bodyValueValidated.json";
import notBodyBodyValue from "./fixtures/annotation-model/annotations/3.2.5-notBodyBodyValue.json";
import bodyObjectsRecognized from "./fixtures/annotation-model/annotations/3.2-bodyObjectsRecognized.json";
import targetObjectsRecognized from "./fixtures/annotation-model/annotations/3.2-targetObjectsRecognized.json";
import annotationCreatedValidated from "./fixtures/annotation-model/annotations/3.3.1-annotationCreatedValidated.json";
import annotationGeneratedValidated from "./fixtures/annotation-model/annotations/3.3.1-annotationGeneratedValidated.json";
import annotationModifiedValidated from "./fixtures/annotation-model/annotations/3.3.1-annotationModifiedValidated.json";
import annotationRightsValidated from "./fixtures/annotation-model/annotations/3.3.6-annotationRightsValidated.json";
import annotationCanonicalValidated from "./fixtures/annotation-model/annotations/3.3.7-annotationCanonicalValidated.json";
import annotationViaValidated from "./fixtures/annotation-model/annotations/3.3.7-annotationViaValidated.json";
import annotationMusts from "./fixtures/annotation-model/annotations/annotationMusts.test.json";
import bodyTextDirectionValidated from "./fixtures/annotation-model/annotations/bodiesTargets/3.2.1-bodyTextDirectionValidated.json";
import targTextDirectionValidated from "./fixtures/annotation-model/annotations/bodiesTargets/3.2.1-targTextDirectionValidated.json";
import bodyChoiceSetNoValue from "./fixtures/annotation-model/annotations/bodiesTargets/3.2.4-bodyChoiceSetNoValue.json";
import targChoiceSetNoValue from "./fixtures/annotation-model/annotations/bodiesTargets/3.2.4-targChoiceSetNoValue.json";
import targNoTypeTextualBody from "./fixtures/annotation-model/annotations/bodiesTargets/3.2.4-targNoTypeTextualBody.json";
import bodyEmbeddedTextualNoItems from "./fixtures/annotation-model/annotations/bodiesTargets/3.2.7-bodyEmbeddedTextualNoItems.json";
import bodyEWRNoItems from "./fixtures/annotation-model/annotations/bodiesTargets/3.2.7-bodyEWRNoItems.json";
import bodySpecificResourceNoItems from "./fixtures/annotation-model/annotations/bodiesTargets/3.2.7-bodySpecificResourceNoItems.json";
import targEWRNoItems from "./fixtures/annotation-model/annotations/bodiesTargets/3.2.7-targEWRNoItems.json";
import targSpecificResourceNoItems from "./fixtures/annotation-model/annotations/bodiesTargets/3.2.7-targSpecificResourceNoItems.json";
import bodyCreatedValidated from "./fixtures/annotation-model/annotations/bodiesTargets/3.3.1-bodyCreatedValidated.json";
import bodyModifiedValidated from "./fixtures/annotation-model/annotations/bodiesTargets/3.3.1-bodyModifiedValidated.json";
import targCreatedValidated from "./fixtures/annotation-model/annotations/bodiesTargets/3.3.1-targCreatedValidated.json";
import targModifiedValidated from "./fixtures/annotation-model/annotations/bodiesTargets/3.3.1-targModifiedValidated.json";
import bodyChoiceSetNoPurpose from "./fixtures/annotation-model/annotations/bodiesTargets/3.3.5-bodyChoiceSetNoPurpose.json";
import bodyEWRNoPurpose from "./fixtures/annotation-model/annotations/bodiesTargets/3.3.5-bodyEWRNoPurpose.json";
import targChoiceSetNoPurpose from "./fixtures/annotation-model/annotations/bodiesTargets/3.3.5-targChoiceSetNoPurpose.json";
import targEWRNoPurpose from "./fixtures/annotation-model/annotations/bodiesTargets/3.3.5-targEWRNoPurpose.json";
import bodyRightsValidated from "./fixtures/annotation-model/annotations/bodiesTargets/3.3.6-bodyRightsValidated.json";
import targRightsValidated from "./fixtures/annotation-model/annotations/bodiesTargets/3.3.6-targRightsValidated.json";
import bodyCanonicalValidated from "./fixtures/annotation-model/annotations/bodiesTargets/3.3.7-bodyCanonicalValidated.json";
import bodyViaValidated from "./fixtures/annotation-model/annotations/bodiesTargets/3.3.7-bodyViaValidated.json";
import targCanonicalValidated from "./fixtures/annotation-model/annotations/bodiesTargets/3.3.7-targCanonicalValidated.json";
import targViaValidated from "./fixtures/annotation-model/annotations/bodiesTargets/3.3.7-targViaValidated.json";
import bodyChoiceSetNoSource from "./fixtures/annotation-model/annotations/bodiesTargets/4-bodyChoiceSetNoSource.json";
import bodyEmbeddedTextualNoSource from "./fixtures/annotation-model/annotations/bodiesTargets/4-bodyEmbeddedTextualNoSource.json";
import bodySpecificResourceNoValue from "./fixtures/annotation-model/annotations/bodiesTargets/4-bodySpecificResourceNoValue.json";
import targChoiceSetNoSource from "./fixtures/annotation-model/annotations/bodiesTargets/4-targChoiceSetNoSource.json";
import targSpecificResourceNoValue from "./fixtures/annotation-model/annotations/bodiesTargets/4-targSpecificResourceNoValue.json";
import textQuoteSelectorValid from "./fixtures/annotation-model/annotations/specificResource/4.2.4-textQuoteSelectorValid.json";
import svgSelectorValid from "./fixtures/annotation-model/annotations/specificResource/4.2.7-svgSelectorValid.json";
import rangeSelectorValid from "./fixtures/annotation-model/annotations/specificResource/4.2.8-rangeSelectorValid.json";
import fragmentCssXPathSelectorValid from "./fixtures/annotation-model/annotations/specificResource/4.2-fragmentCssXPathSelectorValid.json";
import selectorValidIfPresent from "./fixtures/annotation-model/annotations/specificResource/4.2-selectorValidIfPresent.json";
import textDataPositionSelectorValid from "./fixtures/annotation-model/annotations/specificResource/4.2-TextDataPositionSelectorValid.json";
import timeStateValid from "./fixtures/annotation-model/annotations/specificResource/4.3.1-timeStateValid.json";
import httpRequestStateValid from "./fixtures/annotation-model/annotations/specificResource/4.3.2-httpRequestStateValid.json";
import refinedByValidated from "./fixtures/annotation-model/annotations/specificResource/4.3.3-refinedByValidated.json";
import stateValidIfPresent from "./fixtures/annotation-model/annotations/specificResource/4.3-stateValidIfPresent.json";
import styleClassValidIfPresent from "./fixtures/annotation-model/annotations/specificResource/4.4-styleClassValidIfPresent.json";
import collectionCreatedValidated from "./fixtures/annotation-model/collections/3.3.1-collectionCreatedValidated.json";
import collectionModifiedValidated from "./fixtures/annotation-model/collections/3.3.1-collectionModifiedValidated.json";
import collectionRightsValidated from "./fixtures/annotation-model/collections/3.3.6-collectionRightsValidated.json";
import collectionContextValidated from "./fixtures/annotation-model/collections/5.1-collectionContextValidated.json";
import collectionFirstValidated from "./fixtures/annotation-model/collections/5.1-collectionFirstValidated.json";
import collectionIdValidated from "./fixtures/annotation-model/collections/5.1-collectionIdValidated.json";
import collectionLabelValidated from "./fixtures/annotation-model/collections/5.1-collectionLabelValidated.json";
import collectionLastValidated from "./fixtures/annotation-model/collections/5.1-collectionLastValidated.json";
import collectionTotalValidated from "./fixtures/annotation-model/collections/5.1-collectionTotalValidated.json";
import collectionTypeValidated from "./fixtures/annotation-model/collections/5.1-collectionTypeValidated.json";
import collectionMusts from "./fixtures/annotation-model/collections/collectionMusts.test.json";
import pageCreatedValidated from "./fixtures/annotation-model/collections/pages/3.3.1-pageCreatedValidated.json";
import pageModifiedValidated from "./fixtures/annotation-model/collections/pages/3.3.1-pageModifiedValidated.json";
import pageRightsValidated from "./fixtures/annotation-model/collections/pages/3.3.6-pageRightsValidated.json";
import pageContextValidated from "./fixtures/annotation-model/collections/pages/5.2-pageContextValidated.json";
import pageFirstValidated from "./fixtures/annotation-model/collections/pages/5.2-pageFirstValidated.json";
import pageIdValidated from "./fixtures/annotation-model/collections/pages/5.2-pageIdValidated.json";
import pageItemsValidated from "./fixtures/annotation-model/collections/pages/5.2-pageItemsValidated.json";
import pageLabelValidated from "./fixtures/annotation-model/collections/pages/5.2-pageLabelValidated.json";
import pageLastValidated from "./fixtures/annotation-model/collections/pages/5.2-pageLastValidated.json";
import pageNextValidated from "./fixtures/annotation-model/collections/pages/5.2-pageNextValidated.json";
import pagePartOfValidated from "./fixtures/annotation-model/collections/pages/5.2-pagePartOfValidated.json";
import pagePrevValidated from "./fixtures/annotation-model/collections/pages/5.2-pagePrevValidated.json";
import pageStartIndexValidated from "./fixtures/annotation-model/collections/pages/5.2-pageStartIndexValidated.json";
import pageTotalValidated from "./fixtures/annotation-model/collections/pages/5.2-pageTotalValidated.json";
import pageTypeValidated from "./fixtures/annotation-model/collections/pages/5.2-pageTypeValidated.json";
import pageMusts from "./fixtures/annotation-model/collections/pages/pageMusts.test.json";
import annotationsDefinitions from "./fixtures/annotation-model/definitions/annotations.json";
import bodyTargetDefinitions from "./fixtures/annotation-model/definitions/bodyTarget.json";
import choiceSetDefinitions from "./fixtures/annotation-model/definitions/choiceSet.json";
import collectionsDefinitions from "./fixtures/annotation-model/definitions/collections.json";
import idDefinitions from "./fixtures/annotation-model/definitions/id.json";
import otherPropertiesDefinitions from "./fixtures/annotation-model/definitions/otherProperties.json";
import specificResourceDefinitions from "./fixtures/annotation-model/definitions/specificResource.json";

const DEFINITIONS: unknown[] = [
  annotationsDefinitions,
  bodyTargetDefinitions,
  choiceSetDefinitions,
  collectionsDefinitions,
  idDefinitions,
  otherPropertiesDefinitions,
  specificResourceDefinitions,
];

/** The assertion files the MUST tests list, by the path they list them by. */
const ASSERTION_FILES: Record<string, unknown> = {
  "annotations/3.1-annotationContextValidated.json": annotationContextValidated,
  "annotations/3.1-annotationIdValidated.json": annotationIdValidated,
  "annotations/3.1-annotationTypeValidated.json": annotationTypeValidated,
  "annotations/3.1-targetKeyFound.json": targetKeyFound,
  "annotations/3.2-targetObjectsRecognized.json": targetObjectsRecognized,
  "annotations/3.2.5-notBodyBodyValue.json": notBodyBodyValue,
  "annotations/3.2-bodyObjectsRecognized.json": bodyObjectsRecognized,
  "annotations/3.2.5-bodyValueValidated.json": bodyValueValidated,
  "annotations/3.3.1-annotationCreatedValidated.json": annotationCreatedValidated,
  "annotations/3.3.1-annotationModifiedValidated.json": annotationModifiedValidated,
  "annotations/3.3.1-annotationGeneratedValidated.json": annotationGeneratedValidated,
  "annotations/3.3.6-annotationRightsValidated.json": annotationRightsValidated,
  "annotations/3.3.7-annotationCanonicalValidated.json": annotationCanonicalValidated,
  "annotations/3.3.7-annotationViaValidated.json": annotationViaValidated,
  "annotations/bodiesTargets/3.2.1-bodyTextDirectionValidated.json": bodyTextDirectionValidated,
  "annotations/bodiesTargets/3.3.1-bodyCreatedValidated.json": bodyCreatedValidated,
  "annotations/bodiesTargets/3.3.1-bodyModifiedValidated.json": bodyModifiedValidated,
  "annotations/bodiesTargets/3.3.6-bodyRightsValidated.json": bodyRightsValidated,
  "annotations/bodiesTargets/3.3.7-bodyCanonicalValidated.json": bodyCanonicalValidated,
  "annotations/bodiesTargets/3.3.7-bodyViaValidated.json": bodyViaValidated,
  "annotations/bodiesTargets/3.2.7-bodyEWRNoItems.json": bodyEWRNoItems,
  "annotations/bodiesTargets/3.3.5-bodyEWRNoPurpose.json": bodyEWRNoPurpose,
  "annotations/bodiesTargets/3.2.4-bodyChoiceSetNoValue.json": bodyChoiceSetNoValue,
  "annotations/bodiesTargets/4-bodyChoiceSetNoSource.json": bodyChoiceSetNoSource,
  "annotations/bodiesTargets/3.3.5-bodyChoiceSetNoPurpose.json": bodyChoiceSetNoPurpose,
  "annotations/bodiesTargets/3.2.7-bodyEmbeddedTextualNoItems.json": bodyEmbeddedTextualNoItems,
  "annotations/bodiesTargets/4-bodyEmbeddedTextualNoSource.json": bodyEmbeddedTextualNoSource,
  "annotations/bodiesTargets/3.2.7-bodySpecificResourceNoItems.json": bodySpecificResourceNoItems,
  "annotations/bodiesTargets/4-bodySpecificResourceNoValue.json": bodySpecificResourceNoValue,
  "annotations/bodiesTargets/3.2.1-targTextDirectionValidated.json": targTextDirectionValidated,
  "annotations/bodiesTargets/3.3.1-targCreatedValidated.json": targCreatedValidated,
  "annotations/bodiesTargets/3.3.1-targModifiedValidated.json": targModifiedValidated,
  "annotations/bodiesTargets/3.3.6-targRightsValidated.json": targRightsValidated,
  "annotations/bodiesTargets/3.3.7-targCanonicalValidated.json": targCanonicalValidated,
  "annotations/bodiesTargets/3.3.7-targViaValidated.json": targViaValidated,
  "annotations/bodiesTargets/3.2.7-targEWRNoItems.json": targEWRNoItems,
  "annotations/bodiesTargets/3.3.5-targEWRNoPurpose.json": targEWRNoPurpose,
  "annotations/bodiesTargets/3.2.4-targChoiceSetNoValue.json": targChoiceSetNoValue,
  "annotations/bodiesTargets/4-targChoiceSetNoSource.json": targChoiceSetNoSource,
  "annotations/bodiesTargets/3.3.5-targChoiceSetNoPurpose.json": targChoiceSetNoPurpose,
  "annotations/bodiesTargets/3.2.7-targSpecificResourceNoItems.json": targSpecificResourceNoItems,
  "annotations/bodiesTargets/4-targSpecificResourceNoValue.json": targSpecificResourceNoValue,
  "annotations/bodiesTargets/3.2.4-targNoTypeTextualBody.json": targNoTypeTextualBody,
  "annotations/specificResource/4.2-selectorValidIfPresent.json": selectorValidIfPresent,
  "annotations/specificResource/4.3-stateValidIfPresent.json": stateValidIfPresent,
  "annotations/specificResource/4.3.3-refinedByValidated.json": refinedByValidated,
  "annotations/specificResource/4.4-styleClassValidIfPresent.json": styleClassValidIfPresent,
  "annotations/specificResource/4.2-fragmentCssXPathSelectorValid.json": fragmentCssXPathSelectorValid,
  "annotations/specificResource/4.2.4-textQuoteSelectorValid.json": textQuoteSelectorValid,
  "annotations/specificResource/4.2-TextDataPositionSelectorValid.json": textDataPositionSelectorValid,
  "annotations/specificResource/4.2.7-svgSelectorValid.json": svgSelectorValid,
  "annotations/specificResource/4.2.8-rangeSelectorValid.json": rangeSelectorValid,
  "annotations/specificResource/4.3.1-timeStateValid.json": timeStateValid,
  "annotations/specificResource/4.3.2-httpRequestStateValid.json": httpRequestStateValid,
  "collections/5.1-collectionContextValidated.json": collectionContextValidated,
  "collections/5.1-collectionIdValidated.json": collectionIdValidated,
  "collections/5.1-collectionTypeValidated.json": collectionTypeValidated,
  "collections/5.1-collectionLabelValidated.json": collectionLabelValidated,
  "collections/5.1-collectionTotalValidated.json": collectionTotalValidated,
  "collections/5.1-collectionFirstValidated.json": collectionFirstValidated,
  "collections/5.1-collectionLastValidated.json": collectionLastValidated,
  "collections/3.3.1-collectionCreatedValidated.json": collectionCreatedValidated,
  "collections/3.3.1-collectionModifiedValidated.json": collectionModifiedValidated,
  "collections/3.3.6-collectionRightsValidated.json": collectionRightsValidated,
  "collections/pages/5.2-pageContextValidated.json": pageContextValidated,
  "collections/pages/5.2-pageIdValidated.json": pageIdValidated,
  "collections/pages/5.2-pageTypeValidated.json": pageTypeValidated,
  "collections/pages/5.2-pageItemsValidated.json": pageItemsValidated,
  "collections/pages/5.2-pageStartIndexValidated.json": pageStartIndexValidated,
  "collections/pages/5.2-pagePartOfValidated.json": pagePartOfValidated,
  "collections/pages/5.2-pageNextValidated.json": pageNextValidated,
  "collections/pages/5.2-pagePrevValidated.json": pagePrevValidated,
  "collections/pages/5.2-pageTotalValidated.json": pageTotalValidated,
  "collections/pages/5.2-pageLabelValidated.json": pageLabelValidated,
  "collections/pages/5.2-pageFirstValidated.json": pageFirstValidated,
  "collections/pages/5.2-pageLastValidated.json": pageLastValidated,
  "collections/pages/3.3.1-pageCreatedValidated.json": pageCreatedValidated,
  "collections/pages/3.3.1-pageModifiedValidated.json": pageModifiedValidated,
  "collections/pages/3.3.6-pageRightsValidated.json": pageRightsValidated,
};

/** Where every schema's relative `id` is resolved: one folder, as Ajv keyed them. A file URL, which names no host. */
const BASE = "file:///annotation-model/";

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type Action = "continue" | "skip" | "abort";
type AssertionType = "must" | "should" | "may";

interface Meta {
  name: string;
  type: AssertionType;
  expected: string;
  message: string;
  onUnexpected: string;
}

type Entry =
  | { kind: "list"; entries: Entry[] }
  | { kind: "condition"; meta: Meta; compareWith: string; entries: Entry[] }
  | { kind: "assertion"; meta: Meta; schema: Schema };

interface Test {
  entries: Entry[];
  skipFailures: string[];
}

const ACTIONS: Record<string, Action> = {
  failAndContinue: "continue",
  failAndSkip: "skip",
  failAndAbort: "abort",
  passAndContinue: "continue",
  passAndSkip: "skip",
  passAndAbort: "abort",
};

/** Keys beside a `$ref` that constrain nothing, so leave it as draft-04 reads it. */
const NOT_CONSTRAINTS = new Set([
  "$schema",
  "id",
  "$id",
  "title",
  "description",
  "definitions",
  "assertionType",
  "expectedResult",
  "errorMessage",
  "onUnexpectedResult",
  "assertionFile",
  "compareWith",
  "assertions",
]);

/** Keys whose values are data, not schemas. */
const DATA_KEYS = new Set(["enum", "required", "default", "examples", "const", "$ref"]);

/** Ajv 4.0.4's "fast" formats (its lib/compile/formats.js), case-insensitive there, spelled out here for `pattern`. */
const AJV4_FAST_FORMATS: Record<string, string> = {
  uri: "^(?:[a-zA-Z][a-zA-Z0-9+-.]*)?(?::|/)/?[^\\s]*$",
  "date-time": "^\\d\\d\\d\\d-[0-1]\\d-[0-3]\\d[tT\\s][0-2]\\d:[0-5]\\d:[0-5]\\d(?:\\.\\d+)?(?:[zZ]|[+-]\\d\\d:\\d\\d)$",
};

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);

/** Each schema node that has a `$ref` of its own, to the object that carries it once copied (the node, or its moved `$ref`). */
const OWN_REFS = new WeakMap<object, Schema>();

/** A copy of a schema as Ajv 4.0.4 reads it (see the comment at the top). */
function asAjv4(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(asAjv4);
  if (!isObject(node)) return node;
  const copy: Schema = {};
  for (const [key, value] of Object.entries(node)) copy[key] = DATA_KEYS.has(key) ? structuredClone(value) : asAjv4(value);
  const format = copy.format;
  if (typeof format === "string" && AJV4_FAST_FORMATS[format] !== undefined) {
    delete copy.format;
    copy.allOf = [...(copy.allOf ?? []), { pattern: AJV4_FAST_FORMATS[format] }];
  }
  if (typeof copy.$ref === "string") {
    if (Object.keys(copy).some((key) => key !== "$ref" && !NOT_CONSTRAINTS.has(key))) {
      const moved: Schema = { $ref: copy.$ref };
      delete copy.$ref;
      copy.allOf = [...(copy.allOf ?? []), moved];
      OWN_REFS.set(copy, moved);
    } else {
      OWN_REFS.set(copy, copy);
    }
  }
  return copy;
}

const LOOKUP: Record<string, Schema | boolean> = Object.create(null);

/** Adds a schema to the lookup, under its own `id` (resolved against BASE), or else under a name of its own. */
let unnamed = 0;
function register(schema: unknown, fallbackId: () => string): Schema {
  const copy = asAjv4(schema) as Schema;
  if (typeof copy.id !== "string" && typeof copy.$id !== "string") copy.id = fallbackId();
  dereference(copy, LOOKUP, new URL(BASE));
  return copy;
}

for (const definitions of DEFINITIONS) {
  register(definitions, () => {
    throw new Error("A definitions file has no id");
  });
}

/** Each listed assertion file is registered once, whichever tests list it. */
const filed = new Map<string, Schema>();
function assertionFile(path: string): Record<string, unknown> {
  const file = ASSERTION_FILES[path];
  if (!isObject(file)) throw new Error(`Reference to assertion ${path} unresolved`);
  return file;
}

function meta(source: Record<string, unknown>, name: string): Meta {
  const expected = typeof source.expectedResult === "string" ? source.expectedResult : "valid";
  const type = typeof source.assertionType === "string" ? source.assertionType.toLowerCase() : "must";
  return {
    name,
    type: type === "should" || type === "may" ? type : "must",
    expected,
    message: typeof source.errorMessage === "string" ? source.errorMessage : `Result was not ${expected}`,
    onUnexpected: typeof source.onUnexpectedResult === "string" ? source.onUnexpectedResult : "failAndContinue",
  };
}

function prepare(entries: unknown, level: number): Entry[] {
  // A condition object may stand for the whole list.
  const list = Array.isArray(entries) ? entries : [entries];
  return list.map((entry, index): Entry => {
    const position = `${level}:${index + 1}`;
    if (Array.isArray(entry)) return { kind: "list", entries: prepare(entry, level + 1) };
    if (typeof entry === "string") {
      let schema = filed.get(entry);
      if (!schema) {
        schema = register(assertionFile(entry), () => entry.replace(/^.*\//, ""));
        filed.set(entry, schema);
      }
      return { kind: "assertion", meta: meta(assertionFile(entry), entry), schema };
    }
    if (!isObject(entry)) throw new Error(`Assertion ${position} is neither a path, a list nor an object`);
    if (entry.assertions !== undefined) {
      const title = typeof entry.title === "string" ? entry.title : `condition ${position}`;
      const compareWith = entry.compareWith === "or" ? "or" : "and";
      return { kind: "condition", meta: meta(entry, title), compareWith, entries: prepare(entry.assertions, level + 1) };
    }
    let source = entry;
    let name = typeof entry.title === "string" ? entry.title : `inline ${position}`;
    if (typeof entry.assertionFile === "string") {
      const { assertionFile: path, ...overrides } = entry;
      source = { ...assertionFile(path), ...overrides };
      // The file under its own id is another schema: this one is named apart, beside it.
      delete source.id;
      name = path;
    }
    const schema = register(source, () => `inline-${++unnamed}.json`);
    return { kind: "assertion", meta: meta(source, name), schema };
  });
}

function prepareTest(test: unknown): Test {
  if (!isObject(test)) throw new Error("A test is not an object");
  const skipFailures = Array.isArray(test.skipFailures) ? test.skipFailures.filter((t): t is string => typeof t === "string") : [];
  return { entries: prepare(test.assertions, 1), skipFailures };
}

const ANNOTATION = prepareTest(annotationMusts);
const COLLECTION = prepareTest(collectionMusts);
const PAGE = prepareTest(pageMusts);

/** Where Ajv 4 lands following a `$ref` to this node: through the node's own `$ref`, if it has one, its siblings unread. */
function landing(node: Schema | boolean): Schema | boolean {
  const passed = new Set<object>();
  let current = node;
  while (typeof current === "object" && !passed.has(current)) {
    passed.add(current);
    const carrier = OWN_REFS.get(current);
    if (!carrier) break;
    const next = LOOKUP[String(carrier.__absolute_ref__)];
    if (next === undefined) throw new Error(`Unresolved $ref "${carrier.$ref}"`);
    current = next;
  }
  return current;
}

// Every schema is registered by now: a reference to a node within a file (every one here is to #/definitions/<name>)
// gets where Ajv 4's pointer walk lands, while the node itself, met in place, keeps its siblings.
for (const [uri, node] of Object.entries(LOOKUP)) {
  if (uri.includes("#/")) LOOKUP[uri] = landing(node);
}

function nextAction(meta: Meta, asExpected: boolean): Action {
  return asExpected ? "continue" : (ACTIONS[meta.onUnexpected] ?? "continue");
}

/** One list of entries, as JSONtest's runTests: the results of its assertions, and what the list above should do next. */
function run(entries: Entry[], content: Json, fail: (meta: Meta) => void): { action: Action; results: boolean[] } {
  let action: Action = "continue";
  const results: boolean[] = [];
  for (const entry of entries) {
    if (action !== "continue") break;
    if (entry.kind === "list") {
      if (run(entry.entries, content, fail).action === "abort") action = "abort";
      continue;
    }
    let asExpected: boolean;
    if (entry.kind === "condition") {
      const inner = run(entry.entries, content, () => {});
      asExpected = entry.compareWith === "or" ? inner.results.some(Boolean) : inner.results.every(Boolean);
      action = inner.action === "abort" ? "abort" : nextAction(entry.meta, asExpected);
    } else {
      const valid = validate(content, entry.schema, "4", LOOKUP, true).valid;
      asExpected = (entry.meta.expected === "valid" && valid) || (entry.meta.expected === "invalid" && !valid);
      results.push(asExpected);
      action = nextAction(entry.meta, asExpected);
    }
    if (!asExpected) fail(entry.meta);
  }
  return { action, results };
}

function errors(test: Test, value: unknown): string[] {
  // wpt checks the text a reader pastes: the value as JSON, parsed.
  let content: Json;
  try {
    const text = JSON.stringify(value);
    if (text === undefined) return ["Parse of JSON failed: the value has no JSON form"];
    content = JSON.parse(text) as Json;
  } catch (error) {
    return [`Parse of JSON failed: ${error}`];
  }
  const failures: string[] = [];
  run(test.entries, content, (meta) => {
    if (meta.type === "must" && !test.skipFailures.includes(meta.type)) failures.push(`${meta.name}: ${meta.message}`);
  });
  return failures;
}

/** The MUSTs of wpt's annotations/annotationMusts.test that an Annotation fails, each as "<assertion file>: <its errorMessage>". */
export function annotationErrors(annotation: unknown): string[] {
  return errors(ANNOTATION, annotation);
}

/** The MUSTs of wpt's collections/collectionMusts.test that an AnnotationCollection fails. */
export function collectionErrors(collection: unknown): string[] {
  return errors(COLLECTION, collection);
}

/** The MUSTs of wpt's collections/pages/pageMusts.test that an AnnotationPage (or a collection with one embedded) fails. */
export function pageErrors(page: unknown): string[] {
  return errors(PAGE, page);
}
