import { env } from "cloudflare:workers";
import { AsyncLocalStorage } from "node:async_hooks";
import { readCookie, serializeCookie } from "./http/cookies";

// D1's Sessions API per request (DESIGN.md, "Serving members far from the data"): reads may go to
// the nearest read replica, and the session's bookmark travels in a cookie so that a member's next
// request reads at least what their last one wrote. The time spent waiting on D1, and the round
// trips and statements it took, are added up for the response's Server-Timing header.

const BOOKMARK_COOKIE = "d1b";
const BOOKMARK_PATTERN = /^[\w-]{1,200}$/;
const BOOKMARK_MAX_AGE = 60 * 60; // long enough to cover a visit; after that any replica has caught up

interface RequestDb {
  db: D1Database;
  waited: number;
  /** Round trips (a batch is one) and the statements they carried, to every database. */
  trips: number;
  statements: number;
  /** The other databases the request reached (text shards, the statistics'), counted alike. */
  others?: WeakMap<D1Database, D1Database>;
}

const sessions = new AsyncLocalStorage<RequestDb>();

/** The D1 handle for the current request: its session, or the plain binding outside a request. */
export function currentDb(): D1Database {
  return sessions.getStore()?.db ?? env.DB;
}

const TIMED = new Set(["first", "run", "all", "raw"]);

/**
 * Another database (a text shard, the statistics') as the current request or batch reaches it: its
 * round trips and waiting time count in the same figures as the core's. Outside one, `db` itself.
 */
export function counted(db: D1Database): D1Database {
  const state = sessions.getStore();
  if (!state) return db;
  state.others ??= new WeakMap();
  let timed = state.others.get(db);
  if (!timed) {
    timed = timedSession(db as unknown as D1DatabaseSession, state);
    state.others.set(db, timed);
  }
  return timed;
}

/** The session as a D1Database whose queries add their waiting time to `state.waited`. */
function timedSession(session: D1DatabaseSession, state: RequestDb): D1Database {
  const originals = new WeakMap<object, D1PreparedStatement>();
  const time = async <T>(work: Promise<T>, statements = 1): Promise<T> => {
    state.trips += 1;
    state.statements += statements;
    const started = performance.now();
    try {
      return await work;
    } finally {
      state.waited += performance.now() - started;
    }
  };
  const wrap = (statement: D1PreparedStatement): D1PreparedStatement => {
    const proxy = new Proxy(statement, {
      get(target, key) {
        if (key === "bind") return (...values: unknown[]) => wrap(target.bind(...values));
        const value = Reflect.get(target, key, target);
        if (typeof key === "string" && TIMED.has(key)) return (...args: unknown[]) => time(value.apply(target, args));
        return typeof value === "function" ? value.bind(target) : value;
      },
    });
    originals.set(proxy, statement);
    return proxy;
  };
  // Services only use prepare() and batch(), which a session has too.
  return {
    prepare: (query: string) => wrap(session.prepare(query)),
    batch: <T>(statements: D1PreparedStatement[]) =>
      time(session.batch<T>(statements.map((s) => originals.get(s) ?? s)), statements.length),
  } as unknown as D1Database;
}

/**
 * Runs `handle` with a D1 session that starts at the request's bookmark, hands the new bookmark
 * back, and reports the time spent in D1 as `db` in Server-Timing, with its round trips and
 * statements in the description (`npm run bench` prints them per page).
 */
export async function withDbSession(request: Request, handle: () => Promise<Response>): Promise<Response> {
  const incoming = readCookie(request, BOOKMARK_COOKIE);
  const start = incoming && BOOKMARK_PATTERN.test(incoming) ? incoming : "first-unconstrained";
  const session = env.DB.withSession(start);
  const state: RequestDb = { db: env.DB, waited: 0, trips: 0, statements: 0 };
  state.db = timedSession(session, state);
  const response = await sessions.run(state, handle);
  if (response.status === 101) return response;
  const answer = new Response(response.body, response);
  answer.headers.append("Server-Timing", `db;dur=${state.waited.toFixed(1)};desc="D1 ${state.trips} trips ${state.statements} statements"`);
  const bookmark = session.getBookmark();
  if (bookmark && bookmark !== incoming) {
    answer.headers.append("Set-Cookie", serializeCookie(request, BOOKMARK_COOKIE, bookmark, { maxAge: BOOKMARK_MAX_AGE }));
  }
  return answer;
}

/** Background work (a queue's batch) with its D1 round trips and statements counted, for its log line. */
export async function withCountedDb<T>(work: () => Promise<T>) {
  const state: RequestDb = { db: env.DB, waited: 0, trips: 0, statements: 0 };
  state.db = timedSession(env.DB as unknown as D1DatabaseSession, state);
  const result = await sessions.run(state, work);
  return { result, trips: state.trips, statements: state.statements };
}
