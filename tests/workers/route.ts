import { type MiddlewareFunction, RouterContextProvider } from "react-router";
import { createSession } from "~/.server/accounts/sessions";
import { withDbSession } from "~/.server/db-session";
import { TOKEN_TYPE } from "~/.server/web/auth/cookies";
import { requestContext } from "~/.server/web/context";
import * as root from "~/root";
import * as layout from "~/routes/layout";

// The fast layer for pages: a route module's loader or action, called with a real Request through
// the same middleware the framework runs (root's language, notice and session, the layout's guard
// and shell, the route's own), against the real bindings of the workers pool. What it proves is
// the request-and-answer half of a page: intents, redirects, flash cookies, 400 replies, guards.
// Rendering, hydration and clicks stay in the browser suites (tests/e2e).

// Any loader or action: each route's generated types narrow its own arguments.
type Handler = (args: never) => unknown;

export interface RouteModule {
  middleware?: unknown[];
  loader?: Handler;
  action?: Handler;
}

export interface PageRequest {
  /** Path and query, e.g. "/retrieval/detail?id=3". */
  path: string;
  method?: string;
  /** A form body (urlencoded, or multipart when it holds a Blob). */
  form?: Record<string, string | Blob> | FormData;
  /** A JSON body (what the pages' scripts send to resource routes such as /uploads). */
  json?: unknown;
  /** The session cookie of this token (see `sessionFor`). */
  token?: string;
  /** Extra cookies, as `name=value` pairs. */
  cookies?: Record<string, string>;
  headers?: Record<string, string>;
  params?: Record<string, string>;
  /** Whether the route sits in the members' layout (its guard and shell); most pages do. */
  inLayout?: boolean;
}

export interface PageAnswer<T = unknown> {
  status: number;
  headers: Headers;
  /** Where a redirect points, or null. */
  location: string | null;
  /** The loader's or action's data (from `data()` or a plain return); undefined for a Response. */
  data: T;
  /** The Set-Cookie values by cookie name. */
  cookies: Record<string, string>;
  /** The body of a Response the route answered itself (a resource route's JSON, say), as text. */
  body: string;
}

export const ORIGIN = "http://127.0.0.1:8787";

/** A signed-in session for a member, made straight in D1 (the sign-in flow is the auth tests' to prove). */
export const sessionFor = (userId: number) => createSession(userId, Date.now());

function bodyOf(form: PageRequest["form"]): BodyInit | undefined {
  if (!form || form instanceof FormData) return form;
  if (!Object.values(form).some((value) => value instanceof Blob)) return new URLSearchParams(form as Record<string, string>);
  const body = new FormData();
  for (const [name, value] of Object.entries(form)) body.append(name, value);
  return body;
}

function requestOf(init: PageRequest): Request {
  const cookies = { ...init.cookies, ...(init.token ? { token: encodeURIComponent(`${TOKEN_TYPE} ${init.token}`) } : {}) };
  const cookie = Object.entries(cookies)
    .map(([name, value]) => `${name}=${value}`)
    .join("; ");
  const method = init.method ?? (init.form || init.json !== undefined ? "POST" : "GET");
  const json: Record<string, string> = init.json === undefined ? {} : { "Content-Type": "application/json" };
  return new Request(new URL(init.path, ORIGIN), {
    method,
    body: init.json === undefined ? bodyOf(init.form) : JSON.stringify(init.json),
    headers: { ...(cookie ? { Cookie: cookie } : {}), ...(method === "GET" ? {} : { Origin: ORIGIN }), ...json, ...init.headers },
    redirect: "manual",
  });
}

interface DataWithInit {
  type: "DataWithResponseInit";
  data: unknown;
  init: ResponseInit | null;
}
const isDataWithInit = (value: unknown): value is DataWithInit =>
  typeof value === "object" && value !== null && (value as { type?: unknown }).type === "DataWithResponseInit";

/** What the framework would answer for a handler's return value or thrown value. */
function answerOf(value: unknown, sink: { data: unknown }): Response {
  if (value instanceof Response) return value;
  if (isDataWithInit(value)) {
    sink.data = value.data;
    return new Response(null, value.init ?? undefined);
  }
  sink.data = value;
  return new Response(null, { status: 200 });
}

/** What the framework answers for a thrown value: a Response or data() as it is, anything else a 500 (kept for the test). */
function thrownAnswer(thrown: unknown, sink: { data: unknown }): Response {
  if (thrown instanceof Response || isDataWithInit(thrown)) return answerOf(thrown, sink);
  sink.data = thrown;
  return new Response(null, { status: 500 });
}

/**
 * Runs `module`'s loader (GET) or action (any other method) as the framework would for `init`, and
 * answers what it decided. Work handed to waitUntil has finished when this resolves.
 */
export async function callRoute<T = unknown>(module: RouteModule, init: PageRequest): Promise<PageAnswer<T>> {
  const request = requestOf(init);
  const pending: Promise<unknown>[] = [];
  const ctx = { waitUntil: (work: Promise<unknown>) => void pending.push(work), passThroughOnException() {}, props: {} };
  const context = new RouterContextProvider();
  context.set(requestContext, { nonce: "test-nonce", requestId: crypto.randomUUID(), ctx: ctx as unknown as ExecutionContext });
  const handler = request.method === "GET" ? module.loader : module.action;
  if (!handler) throw new Error(`the route has no ${request.method === "GET" ? "loader" : "action"}`);
  const chain = [...root.middleware, ...(init.inLayout === false ? [] : layout.middleware), ...(module.middleware ?? [])] as Array<
    MiddlewareFunction<Response>
  >;
  const sink = { data: undefined as unknown };
  // What the framework hands loaders, actions and middleware (`pattern` is the route's path).
  const args = { request, url: new URL(request.url), params: init.params ?? {}, context, pattern: new URL(request.url).pathname };
  const run = async (index: number): Promise<Response> => {
    const middleware = chain[index];
    try {
      if (!middleware) return answerOf(await handler(args as never), sink);
      return (await middleware(args as never, () => run(index + 1))) ?? new Response(null);
    } catch (thrown) {
      return thrownAnswer(thrown, sink);
    }
  };
  const response = await withDbSession(request, () => run(0));
  await Promise.all(pending);
  const cookies: Record<string, string> = {};
  for (const line of response.headers.getSetCookie()) {
    const [pair = ""] = line.split(";");
    const eq = pair.indexOf("=");
    cookies[pair.slice(0, eq)] = decodeURIComponent(pair.slice(eq + 1));
  }
  return {
    status: response.status,
    headers: response.headers,
    location: response.headers.get("Location"),
    data: sink.data as T,
    cookies,
    body: await response.text(),
  };
}
