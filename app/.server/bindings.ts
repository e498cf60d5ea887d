// The one way server code reaches Cloudflare bindings (D1, R2, Durable Objects, limits, vars).
// `env.DB` is the current request's D1 session (db-session.ts), so every query a request makes
// reads through the Sessions API without each service having to be told.
import { env as raw } from "cloudflare:workers";
import { currentDb } from "./db-session";

export const env: Env = new Proxy(raw, {
  get: (target, key) => (key === "DB" ? currentDb() : Reflect.get(target, key)),
});
