import { Validator } from "@cfworker/json-schema";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { createSession } from "~/.server/accounts/sessions";
import { handleApi } from "~/api/router";
import { newItem, newMember, testCaller } from "./helpers";

// A bounded fuzz of the documented API: every operation of /api/openapi.json, with generated path
// parameters, query strings and JSON bodies, as a signed-in member. Whatever arrives, the answer is
// never a 5xx and always one the document lists for that operation, in the shape it documents.

type Operation = {
  responses: Record<string, { content?: Record<string, { schema: object }> }>;
  parameters?: { name: string; in: string }[];
};
type Doc = { paths: Record<string, Record<string, Operation>> };

const json = fc.oneof(
  fc.jsonValue({ maxDepth: 2 }),
  fc.dictionary(
    fc.constantFrom("email", "pwd", "code", "body", "client_id", "sdg", "title", "user_id", "size", "nick_name"),
    fc.jsonValue({ maxDepth: 1 }),
  ),
);
const segment = fc.oneof(fc.constantFrom("1", "2", "0", "999999999"), fc.nat({ max: 50 }).map(String));
const text = fc.oneof(fc.string({ maxLength: 20 }), fc.constantFrom("-1", "0", "1", "17", "18", "1e9", "NaN", "members", "likes"));

async function documented(): Promise<Doc> {
  const response = await handleApi({ ...testCaller().caller, request: new Request("https://app.test/api/openapi.json") });
  return (await response.json()) as Doc;
}

describe("the documented API under generated input", () => {
  it("answers every operation without a 5xx, only with statuses the document lists, in their documented shapes", async () => {
    const doc = await documented();
    const me = await newMember("Fuzz");
    await newItem(me);
    const token = await createSession(me, Date.now());
    const operations = Object.entries(doc.paths).flatMap(([path, methods]) =>
      Object.entries(methods).map(([method, operation]) => ({ path, method: method.toUpperCase(), operation })),
    );
    // Calls that end the session or whose answers are files stay out of a random walk.
    const fuzzed = operations.filter((o) => o.path !== "/auth/logout" && !o.path.endsWith("/file") && !o.path.endsWith("/thumbnail"));
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...fuzzed),
        fc.array(segment, { minLength: 2, maxLength: 2 }),
        fc.dictionary(fc.constantFrom("q", "tab", "sdg", "kind", "sort", "page", "since", "type", "before", "after", "limit"), text),
        json,
        async ({ path, method, operation }, segments, query, body) => {
          let i = 0;
          const concrete = path.replace(/\{\w+\}/g, () => encodeURIComponent(segments[i++] ?? "1"));
          const url = new URL(`https://app.test/api${concrete}`);
          for (const [name, value] of Object.entries(query)) url.searchParams.set(name, value);
          const hasBody = method !== "GET" && method !== "DELETE";
          const request = new Request(url, {
            method,
            headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json" },
            body: hasBody ? JSON.stringify(body) : undefined,
          });
          const response = await handleApi({ ...testCaller(Date.now()).caller, request });
          const status = String(response.status);
          expect(response.status, `${method} ${concrete}`).toBeLessThan(500);
          expect(Object.keys(operation.responses), `${method} ${concrete} answered ${status}`).toContain(status);
          const schema = operation.responses[status]?.content?.["application/json"]?.schema;
          const answer = await response.json().catch(() => undefined);
          // Every refusal is in our words, translated: never a validator's own ("Invalid input: expected string, ...").
          expect(JSON.stringify(answer ?? null), `${method} ${concrete}`).not.toMatch(
            /Invalid input|expected \w+, received|Too (big|small)/,
          );
          if (schema) {
            const problems = new Validator(schema as never, "2020-12", false)
              .validate(answer)
              .errors.map((e) => `${e.instanceLocation}: ${e.error}`);
            expect(problems, `${method} ${concrete} answered ${status}`).toEqual([]);
          }
        },
      ),
      { numRuns: 300 },
    );
  });
});
