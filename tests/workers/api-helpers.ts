import { Validator } from "@cfworker/json-schema";
import { expect } from "vitest";
import { document, handleApi } from "~/api/router";
import { mailedCode, testCaller, uniqueEmail } from "./helpers";

// What the api-*.test.ts files share: an API call whose every answer is checked against the OpenAPI
// document for its path, method and status, and a member registered through the API.

/**
 * The router, for the test files to take from here rather than from ~/api/router: @cfworker/json-schema
 * reads the global `location` as it loads, and the image codecs (@jsquash) the router loads set it to
 * `{ href: "" }`, which it cannot read. Loaded through this file, the schema library comes first.
 */
export { document, handleApi };

type Schema = Record<string, unknown>;

/** Problems of a value against a JSON Schema of the document, by a maintained validator that runs in workerd. */
export const conforms = (value: unknown, schema: Schema) =>
  new Validator(schema as never, "2020-12", false).validate(value).errors.map((e) => `${e.instanceLocation}: ${e.error}`);

export const paths = document().paths as unknown as Record<
  string,
  Record<string, { responses: Record<string, { content?: { "application/json": { schema: Schema } } }> }>
>;

const ERROR_DOC = paths["/users/login"]?.post?.responses["400"];
export const NOW = Date.UTC(2026, 10, 22, 9, 0); // testCaller's default clock

export async function call(
  method: string,
  path: string,
  options: {
    body?: unknown;
    raw?: { body: BodyInit; type: string };
    token?: string;
    caller?: ReturnType<typeof testCaller>;
    language?: "en" | "ja" | "zh";
  } = {},
) {
  const { caller, settle } = options.caller ?? testCaller();
  const headers: Record<string, string> = { "Content-Type": options.raw?.type ?? "application/json" };
  if (options.token) headers.Authorization = `Bearer ${options.token}`;
  const request = new Request(`https://app.test/api${path}`, {
    method,
    headers,
    body: options.raw?.body ?? (options.body === undefined ? undefined : JSON.stringify(options.body)),
  });
  const response = await handleApi({ ...caller, language: options.language ?? "en", request });
  await settle();
  const json = (await response.json()) as {
    code: number;
    message: string;
    data?: Record<string, unknown>;
    errors?: Record<string, string[]>;
  };
  // Every answer must match the documented contract for its path, method and status.
  const template = path
    .replace(/\/parts\/\d+$/, "/parts/{n}")
    .replace(/^\/(users|contents|comments|members|conversations|meetings)\/\d+/, "/$1/{id}")
    .replace(/^\/interests\/\d+$/, "/interests/{sdg}")
    .replace(/^\/notifications\/goals\/\w+$/, "/notifications/goals/{sdg}")
    .replace(/^\/notifications\/searches\/\d+$/, "/notifications/searches/{id}")
    .replace(/^\/tags\/\d+$/, "/tags/{id}")
    .replace(/^\/review\/verifications\/\d+$/, "/review/verifications/{id}")
    .replace(/^\/uploads\/[\w-]{36}/, "/uploads/{id}");
  // A method a path does not have (405) answers the common error shape.
  const documented =
    paths[template]?.[method.toLowerCase()]?.responses[String(response.status)] ?? (response.status === 405 ? ERROR_DOC : undefined);
  if (documented?.content) expect(conforms(json, documented.content["application/json"].schema)).toEqual([]);
  else if (template in paths) throw new Error(`${method} ${template} answered ${response.status}, which is not documented`);
  return { status: response.status, json, headers: response.headers };
}

export const userId = (res: { json: { data?: unknown } }) => (res.json.data as { user: { id: number } }).user.id;

export async function registered(accountType: 1 | 2 = 1) {
  const email = uniqueEmail("api");
  await call("POST", "/users/send-verification-code", { body: { email } });
  const code = await mailedCode(email);
  const res = await call("POST", "/users/register", {
    body: { email, code, pwd: "river stones and moss", nick_name: "Api", account_type: accountType },
  });
  return { email, res };
}
